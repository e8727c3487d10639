/**
 * The last checks before a write is queued (MemoryAgent.submit, once nothing else refuses it): the
 * tenant's daily messages quota is charged, then the agent is registered in D1 if it is not yet, so
 * the cron safety net can find its work. A registration that fails gives the charge back: a refused
 * write has registered and charged nothing (a placement refusal included: docs/deploy.md, "Near the user").
 */
import { AgentQuotaError, PlacementError, RegistryFullError } from "../storage/agent-registry";
import type { AgentState } from "./agent-state";
import { quotaRefusal, type QuotaRefusal } from "./refusal";

export type WriteRefusal =
  | { ok: false; code: "quota_exceeded"; message: string; quota: QuotaRefusal }
  | { ok: false; code: "capacity" | "conflict"; message: string };

/** Undefined when the write may be queued. */
export async function admitWrite(state: AgentState, kind: string, payload: unknown): Promise<WriteRefusal | undefined> {
  const terms = state.terms;
  const now = Date.now();
  const overQuota = await terms.chargeFor(kind, payload, now);
  if (overQuota) return quotaRefusal(overQuota);
  if (state.existingRepos()) return undefined;
  try {
    await state.repos();
    return undefined;
  } catch (err) {
    if (!(err instanceof AgentQuotaError || err instanceof RegistryFullError || err instanceof PlacementError)) throw err;
    await terms.refund(kind, payload, now);
    if (err instanceof AgentQuotaError) return quotaRefusal({ name: "agents", limit: err.limit, retryAfterS: err.retryAfterS });
    // Not where the agent must be (another jurisdiction, or none configured for it): never elsewhere.
    if (err instanceof PlacementError) return { ok: false, code: "conflict", message: err.message };
    return { ok: false, code: "capacity", message: err.message };
  }
}
