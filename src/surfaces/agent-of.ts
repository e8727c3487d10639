import type { Context } from "hono";
import { agentClient, type AgentClient } from "../agent/client";
import type { AppEnv } from "../http/app-env";

/**
 * The agent addressed by a request: tenant from the authenticated key, agent id from the path, in
 * the tenant's jurisdiction and near its region (read with the key: no extra round trip); its
 * writes carry the tenant's limits (the agent applies the quotas counted where it writes) and
 * region (where a new agent is placed).
 */
export function agentOf(c: Context<AppEnv>, agentId: string): AgentClient {
  const { tenantId, limits, jurisdiction, region } = c.get("principal");
  const identity = jurisdiction === null ? { tenantId, agentId } : { tenantId, agentId, jurisdiction };
  return agentClient(c.env, identity, limits, region ?? undefined);
}

/** What a write passes to the agent from its headers (src/surfaces/headers.ts). */
export function writeOptions(headers: { "idempotency-key"?: string | undefined }): { idempotencyKey?: string } {
  const key = headers["idempotency-key"];
  return key === undefined ? {} : { idempotencyKey: key };
}
