import type { Context } from "hono";
import { agentClient, type AgentClient } from "../agent/client";
import type { AppEnv } from "../http/app-env";

/**
 * The agent addressed by a request: tenant from the authenticated key, agent id from the path; its
 * writes carry the tenant's limits (the agent applies the quotas counted where it writes).
 */
export function agentOf(c: Context<AppEnv>, agentId: string): AgentClient {
  const { tenantId, limits } = c.get("principal");
  return agentClient(c.env, { tenantId, agentId }, limits);
}

/** What a write passes to the agent from its headers (src/surfaces/headers.ts). */
export function writeOptions(headers: { "idempotency-key"?: string | undefined }): { idempotencyKey?: string } {
  const key = headers["idempotency-key"];
  return key === undefined ? {} : { idempotencyKey: key };
}
