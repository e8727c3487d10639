/**
 * Per-tenant quotas (docs/deploy.md, "Quotas"): the deployment's defaults are vars (QUOTA_*), the
 * operator overrides them per tenant (the tenants table). One zod schema is the single source of
 * their names, bounds and descriptions for the admin API and the CLI.
 */
import { z } from "zod";

/** The quotas a refusal names (`details.quota` of a 429 quota_exceeded). */
export const QUOTA_NAMES = ["agents", "nodes_per_agent", "messages_per_day", "requests_per_minute"] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

/** What one tenant may use, defaults and overrides resolved. */
export interface TenantLimits {
  /** Agents registered at once. */
  agents: number;
  /** Nodes one agent holds: its `capacity` parameter is capped here (forgetting keeps it below). */
  nodesPerAgent: number;
  /** Messages accepted by remember per UTC day, over all its agents. */
  messagesPerDay: number;
  /** Requests per minute (per Cloudflare location: the rate-limiting binding counts per location). */
  requestsPerMinute: number;
  /** Its share of the account's model budget against the other tenants with work waiting. */
  modelWeight: number;
}

/**
 * The rate-limiting binding's units per minute (`simple.limit` of REQUEST_RATE in both wrangler
 * configurations; test/unit/config/quotas.test.ts checks they agree). A request costs
 * ceil(units / requests_per_minute) units, so one binding serves every tenant's own limit: a tenant
 * gets ceil(units / cost) requests, its own limit for any limit up to 1,000 and within 1 % of it
 * up to 10,000; at the units themselves (cost 1) the limit is the binding's alone.
 */
export const REQUEST_RATE_UNITS = 1_000_000;

/** The units one request of a tenant costs (the binding allows a call while its count is below the units). */
export function requestRateDelta(requestsPerMinute: number): number {
  return Math.ceil(REQUEST_RATE_UNITS / requestsPerMinute);
}

const Count = (max: number) => z.coerce.number().int().min(1).max(max);

/** Bounds and meanings, shared by the defaults (vars) and the overrides (admin API, CLI). */
export const QUOTA_FIELDS = {
  agents: Count(100_000_000).describe("Agents a tenant may have at once (agents per tenant)."),
  nodes_per_agent: Count(1_000_000).describe("Nodes one agent may hold: its `capacity` parameter is capped at this."),
  messages_per_day: Count(1_000_000_000).describe("Messages remember accepts per UTC day, over all the tenant's agents."),
  requests_per_minute: Count(REQUEST_RATE_UNITS).describe("Requests per minute (per Cloudflare location)."),
  model_weight: Count(1_000).describe("Share of the account's model budget against other tenants with work waiting."),
} as const;

/** A tenant's overrides as the operator sets them: null returns one to the default; absent keeps it. */
export const QuotaOverridesSchema = z
  .object({
    agents: QUOTA_FIELDS.agents.nullable().optional(),
    nodes_per_agent: QUOTA_FIELDS.nodes_per_agent.nullable().optional(),
    messages_per_day: QUOTA_FIELDS.messages_per_day.nullable().optional(),
    requests_per_minute: QUOTA_FIELDS.requests_per_minute.nullable().optional(),
    model_weight: QUOTA_FIELDS.model_weight.nullable().optional(),
  })
  .strict();
export type QuotaOverridesPatch = z.infer<typeof QuotaOverridesSchema>;

/** The vars that set the defaults; unset or empty means the built-in default below. */
export interface QuotaEnv {
  readonly QUOTA_AGENTS_PER_TENANT?: string;
  readonly QUOTA_NODES_PER_AGENT?: string;
  readonly QUOTA_MESSAGES_PER_DAY?: string;
  readonly QUOTA_REQUESTS_PER_MINUTE?: string;
}

/**
 * What a deployment allows when its configuration says nothing (wrangler.local.toml: the local
 * server). Requests per minute: none beyond the binding's own limit; wrangler.toml sets 1,200.
 */
const BUILT_IN: TenantLimits = {
  agents: 10_000,
  nodesPerAgent: 100_000,
  messagesPerDay: 1_000_000,
  requestsPerMinute: REQUEST_RATE_UNITS,
  modelWeight: 1,
};

function varOf(name: keyof QuotaEnv, raw: string | undefined, schema: z.ZodType<number>, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${name} must be a whole number within its bounds (docs/deploy.md, "Quotas"), got "${raw}"`);
  return parsed.data;
}

/** The deployment's defaults; a var out of bounds is a configuration error. */
export function quotaDefaults(env: QuotaEnv): TenantLimits {
  return {
    agents: varOf("QUOTA_AGENTS_PER_TENANT", env.QUOTA_AGENTS_PER_TENANT, QUOTA_FIELDS.agents, BUILT_IN.agents),
    nodesPerAgent: varOf("QUOTA_NODES_PER_AGENT", env.QUOTA_NODES_PER_AGENT, QUOTA_FIELDS.nodes_per_agent, BUILT_IN.nodesPerAgent),
    messagesPerDay: varOf("QUOTA_MESSAGES_PER_DAY", env.QUOTA_MESSAGES_PER_DAY, QUOTA_FIELDS.messages_per_day, BUILT_IN.messagesPerDay),
    requestsPerMinute: varOf(
      "QUOTA_REQUESTS_PER_MINUTE",
      env.QUOTA_REQUESTS_PER_MINUTE,
      QUOTA_FIELDS.requests_per_minute,
      BUILT_IN.requestsPerMinute,
    ),
    modelWeight: BUILT_IN.modelWeight,
  };
}

/** A tenant's overrides as stored (null: the default). */
export interface StoredOverrides {
  maxAgents: number | null;
  maxNodesPerAgent: number | null;
  messagesPerDay: number | null;
  requestsPerMinute: number | null;
  modelWeight: number | null;
}

export function limitsOf(defaults: TenantLimits, overrides: StoredOverrides): TenantLimits {
  return {
    agents: overrides.maxAgents ?? defaults.agents,
    nodesPerAgent: overrides.maxNodesPerAgent ?? defaults.nodesPerAgent,
    messagesPerDay: overrides.messagesPerDay ?? defaults.messagesPerDay,
    requestsPerMinute: overrides.requestsPerMinute ?? defaults.requestsPerMinute,
    modelWeight: overrides.modelWeight ?? defaults.modelWeight,
  };
}

/** The UTC day of a moment, YYYY-MM-DD: what daily quotas and usage are counted by. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Seconds from `ms` to the next UTC midnight (a daily quota's Retry-After), at least 1. */
export function secondsToNextUtcDay(ms: number): number {
  const next = Math.floor(ms / 86_400_000 + 1) * 86_400_000;
  return Math.max(1, Math.ceil((next - ms) / 1000));
}
