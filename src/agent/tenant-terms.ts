/**
 * The tenant's terms as the agent's object applies them (docs/deploy.md, "Quotas", "Usage"):
 *
 * - the limits the edge sends with every write (resolved from the key: src/http/principal.ts),
 *   kept in the object's meta so work without a request (a cycle's capacity, model permits) knows
 *   them;
 * - the daily messages quota, charged where a remember is accepted: one conditional upsert on the
 *   primary database (src/storage/tenant-usage.ts), after the idempotency and refusal checks and
 *   before the task is queued, so a refused remember writes nothing and a retried one is charged
 *   once. It is the remember acknowledgement's one D1 round trip;
 * - the agent's usage per day, counted in its own SQLite (usage-days.ts) and reported to D1 when
 *   its alarm rings, USAGE_REPORT_SECONDS after the last report at the latest, with what it holds
 *   (nodes, vectors).
 */
import { z } from "zod";
import { secondsToNextUtcDay, utcDay, type TenantLimits } from "../config/quotas";
import type { MetaStore } from "../engine/stores/meta-store";
import type { SubmitOptions } from "./submit-options";
import type { UsageDays } from "../engine/stores/usage-days";
import { runBatch } from "../storage/batch";
import { createDb } from "../storage/db";
import { TenantUsage } from "../storage/tenant-usage";
import type { AgentIdentity } from "../vocabulary/identity";
import type { AgentNetworkAccess } from "./agent-network";
import type { QuotaRefusal } from "./refusal";

/** The least time between two usage reports of one agent when USAGE_REPORT_SECONDS says nothing. */
const DEFAULT_REPORT_SECONDS = 60;

const ReportSeconds = z.coerce.number().int().min(1).max(3_600);

export type TermsEnv = Pick<Env, "DB"> & { readonly USAGE_REPORT_SECONDS?: string };

export function reportIntervalMs(env: TermsEnv): number {
  const raw = env.USAGE_REPORT_SECONDS;
  if (raw === undefined || raw.trim() === "") return DEFAULT_REPORT_SECONDS * 1000;
  const parsed = ReportSeconds.safeParse(raw);
  if (!parsed.success) throw new Error(`USAGE_REPORT_SECONDS must be a whole number of seconds from 1 to 3600, got "${raw}"`);
  return parsed.data * 1000;
}

/** The messages a write brings: a remember's; any other kind, none. */
function messagesOf(kind: string, payload: unknown): number {
  if (kind !== "remember" || typeof payload !== "object" || payload === null || !("messages" in payload)) return 0;
  return Array.isArray(payload.messages) ? payload.messages.length : 0;
}

export class TenantTerms {
  constructor(
    private readonly env: TermsEnv,
    private readonly meta: MetaStore,
    readonly usage: UsageDays,
    private readonly network: AgentNetworkAccess,
    private readonly identity: () => AgentIdentity,
  ) {}

  /**
   * Keeps the limits a write came with (written only when they changed), and hands its region to
   * the network, which places the agent there if this write registers it.
   */
  accept({ limits, region }: Pick<SubmitOptions, "limits" | "region">): void {
    this.network.regionHint = region;
    if (limits === undefined) return;
    const known = this.meta.get("tenantLimits");
    if (known === undefined || JSON.stringify(known) !== JSON.stringify(limits)) this.meta.set("tenantLimits", { ...limits });
  }

  limits(): TenantLimits | undefined {
    return this.meta.get("tenantLimits");
  }

  /**
   * Charges a remember's messages to the tenant's day: undefined when charged (or when the write is
   * no remember, or no limits came with it: a call that is no tenant's), else the refusal, with
   * nothing charged.
   */
  async chargeFor(kind: string, payload: unknown, now: number): Promise<QuotaRefusal | undefined> {
    const limit = this.limits()?.messagesPerDay;
    const messages = messagesOf(kind, payload);
    if (messages === 0 || limit === undefined) return undefined;
    const charged = await new TenantUsage(createDb(this.env.DB)).chargeMessages(this.identity().tenantId, utcDay(now), messages, limit);
    return charged ? undefined : { name: "messages_per_day", limit, retryAfterS: secondsToNextUtcDay(now) };
  }

  /** Gives back what chargeFor charged, when the write is refused after all (its agent could not register). */
  async refund(kind: string, payload: unknown, chargedAt: number): Promise<void> {
    const messages = messagesOf(kind, payload);
    if (messages === 0 || this.limits() === undefined) return;
    await new TenantUsage(createDb(this.env.DB)).refundMessages(this.identity().tenantId, utcDay(chargedAt), messages);
  }

  /**
   * Reports the unreported counts (the alarm calls it: the queue runner arms it for the report
   * interval, or the queue's own work brings it sooner): one batch on the primary database,
   * outside the usage it meters. A failed report is retried at the next interval.
   */
  async report(now: number): Promise<void> {
    const rows = this.usage.unreported();
    if (rows.length === 0) return;
    try {
      const { tenantId, agentId } = this.identity();
      const held = await this.held();
      await runBatch(this.env.DB, new TenantUsage(createDb(this.env.DB)).reportStatements(tenantId, agentId, rows, held));
      this.usage.markReported(rows, now);
    } catch (err) {
      console.warn("usage report failed; it is retried after the report interval", err);
      this.usage.markReported([], now);
    }
  }

  /** What the agent holds: its nodes (the graph's count when loaded), and one vector per node with Vectorize. */
  private async held(): Promise<{ agentUid: number; nodes: number; vectors: number } | undefined> {
    const placement = this.network.placement();
    const nodes = await this.network.nodesHeld();
    if (placement === undefined || nodes === undefined) return undefined;
    const vectors = (await this.network.vectors()?.stats())?.vectors ?? nodes;
    return { agentUid: placement.uid, nodes, vectors };
  }
}
