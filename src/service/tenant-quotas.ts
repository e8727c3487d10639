/**
 * A tenant's quotas as the operator reads and sets them (docs/deploy.md, "Quotas"): the
 * deployment's defaults (QUOTA_* vars), the tenant's overrides, and what is in force. A change and
 * its audit entry are one batch.
 */
import {
  limitsOf,
  quotaDefaults,
  type QuotaEnv,
  type QuotaOverridesPatch,
  type StoredOverrides,
  type TenantLimits,
} from "../config/quotas";
import { AuditLog } from "../storage/audit-log";
import { runBatch, statement } from "../storage/batch";
import { createDb } from "../storage/db";
import { Tenants } from "../storage/tenants";
import type { Actor } from "./key-lifecycle";

/** Quotas by their public names (the admin API's and the CLI's). */
export interface QuotaView {
  agents: number;
  nodes_per_agent: number;
  messages_per_day: number;
  requests_per_minute: number;
  model_weight: number;
}

export interface TenantQuotas {
  tenant: string;
  in_force: QuotaView;
  defaults: QuotaView;
  /** What the operator set for this tenant (absent: the default). */
  overrides: Partial<QuotaView>;
}

function view(limits: TenantLimits): QuotaView {
  return {
    agents: limits.agents,
    nodes_per_agent: limits.nodesPerAgent,
    messages_per_day: limits.messagesPerDay,
    requests_per_minute: limits.requestsPerMinute,
    model_weight: limits.modelWeight,
  };
}

function overridesView(o: StoredOverrides): Partial<QuotaView> {
  const out: Partial<QuotaView> = {};
  if (o.maxAgents !== null) out.agents = o.maxAgents;
  if (o.maxNodesPerAgent !== null) out.nodes_per_agent = o.maxNodesPerAgent;
  if (o.messagesPerDay !== null) out.messages_per_day = o.messagesPerDay;
  if (o.requestsPerMinute !== null) out.requests_per_minute = o.requestsPerMinute;
  if (o.modelWeight !== null) out.model_weight = o.modelWeight;
  return out;
}

export async function tenantQuotas(env: Pick<Env, "DB"> & QuotaEnv, tenantId: string): Promise<TenantQuotas> {
  const overrides = await new Tenants(createDb(env.DB)).overrides(tenantId);
  const defaults = quotaDefaults(env);
  return { tenant: tenantId, in_force: view(limitsOf(defaults, overrides)), defaults: view(defaults), overrides: overridesView(overrides) };
}

/** Applies a patch (a null field returns it to the default; an absent one keeps it), with its audit entry. */
export async function setTenantQuotas(
  env: Pick<Env, "DB"> & QuotaEnv,
  tenantId: string,
  patch: QuotaOverridesPatch,
  by: Actor,
  now: number,
): Promise<TenantQuotas> {
  const db = createDb(env.DB);
  const tenants = new Tenants(db);
  const before = await tenants.overrides(tenantId);
  const pick = (value: number | null | undefined, current: number | null) => (value === undefined ? current : value);
  const after: StoredOverrides = {
    maxAgents: pick(patch.agents, before.maxAgents),
    maxNodesPerAgent: pick(patch.nodes_per_agent, before.maxNodesPerAgent),
    messagesPerDay: pick(patch.messages_per_day, before.messagesPerDay),
    requestsPerMinute: pick(patch.requests_per_minute, before.requestsPerMinute),
    modelWeight: pick(patch.model_weight, before.modelWeight),
  };
  const details: Record<string, number | null> = {};
  for (const [name, value] of Object.entries(patch)) if (value !== undefined) details[name] = value;
  await runBatch(env.DB, [
    statement(tenants.set(tenantId, after, now)),
    statement(new AuditLog(db).append({ tenantId, at: now, action: "quota.changed", ...by, agentId: null, subject: null, details })),
  ]);
  const defaults = quotaDefaults(env);
  return { tenant: tenantId, in_force: view(limitsOf(defaults, after)), defaults: view(defaults), overrides: overridesView(after) };
}
