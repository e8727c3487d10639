import type { AgentIdentity } from "../vocabulary/identity";

/**
 * The Durable Object name of an agent. Tenant and agent ids cannot contain ":" (AGENT_ID_PATTERN),
 * so the name is unambiguous: two tenants' agents with the same id are two objects.
 */
export function agentObjectName(identity: AgentIdentity): string {
  return `${identity.tenantId}:${identity.agentId}`;
}

export function agentStub(env: Pick<Env, "AGENT">, identity: AgentIdentity): DurableObjectStub<import("./memory-agent").MemoryAgent> {
  return env.AGENT.get(env.AGENT.idFromName(agentObjectName(identity)));
}
