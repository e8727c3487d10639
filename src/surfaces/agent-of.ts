import type { Context } from "hono";
import { agentClient, type AgentClient } from "../agent/client";
import type { AppEnv } from "../http/app-env";

/** The agent addressed by a request: tenant from the authenticated key, agent id from the path. */
export function agentOf(c: Context<AppEnv>, agentId: string): AgentClient {
  return agentClient(c.env, { tenantId: c.get("tenantId"), agentId });
}

/** What a write passes to the agent from its headers (src/surfaces/headers.ts). */
export function writeOptions(headers: { "idempotency-key"?: string | undefined }): { idempotencyKey?: string } {
  const key = headers["idempotency-key"];
  return key === undefined ? {} : { idempotencyKey: key };
}
