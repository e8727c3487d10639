import type { Context } from "hono";
import { agentStub } from "../agent/naming";
import type { AppEnv } from "../http/app-env";
import type { AgentIdentity } from "../storage/agent-registry";

/** The agent addressed by a request: tenant from the authenticated key, agent id from the path. */
export function agentOf(c: Context<AppEnv>, agentId: string) {
  const identity: AgentIdentity = { tenantId: c.get("tenantId"), agentId };
  return { identity, stub: agentStub(c.env, identity) };
}
