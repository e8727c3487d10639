/**
 * How an agent's Durable Object is addressed (docs/deploy.md, "Near the user"): by its name in the
 * namespace of its jurisdiction, `env.AGENT.jurisdiction("eu")` for an EU agent, the plain
 * namespace otherwise. In the EU namespace the same name is another object, which runs and stores
 * its data in the EU only. With its tenant's region, `get()` carries that region as the location
 * hint: the platform creates a new object there (a hint matters only at creation).
 *
 * workerd does not implement jurisdictions (its `jurisdiction()` throws "Jurisdiction restrictions
 * are not implemented in workerd"): the local configuration sets EMULATE_JURISDICTIONS, and a
 * jurisdiction's namespace is then emulated by a name prefix, so an EU agent is still a different
 * object from the agent of the same name outside it. Production never sets it.
 */
import type { AgentIdentity } from "../vocabulary/identity";
import type { Jurisdiction } from "../vocabulary/jurisdictions";
import type { Region } from "../vocabulary/regions";

/**
 * The Durable Object name of an agent. Tenant and agent ids cannot contain ":" (AGENT_ID_PATTERN),
 * so the name is unambiguous: two tenants' agents with the same id are two objects.
 */
export function agentObjectName(identity: AgentIdentity): string {
  return `${identity.tenantId}:${identity.agentId}`;
}

type AgentNamespace = DurableObjectNamespace<import("./memory-agent").MemoryAgent>;

/** What the address is read from: `Env` satisfies it. */
export type NamingEnv = { readonly AGENT: AgentNamespace; readonly EMULATE_JURISDICTIONS?: string };

/** The names a namespace needs to address an agent (the platform's, or the local emulation). */
type AgentAddressing = Pick<AgentNamespace, "idFromName" | "get">;

/** The namespace an agent of this jurisdiction is addressed in. */
export function agentNamespace(env: NamingEnv, jurisdiction: Jurisdiction | undefined): AgentAddressing {
  if (jurisdiction === undefined) return env.AGENT;
  if (env.EMULATE_JURISDICTIONS !== "true") return env.AGENT.jurisdiction(jurisdiction);
  // Local only: "eu:tenant:agent" holds two ":", a name outside the emulation one (AGENT_ID_PATTERN).
  return { idFromName: (name) => env.AGENT.idFromName(`${jurisdiction}:${name}`), get: (id, options) => env.AGENT.get(id, options) };
}

export function agentStub(
  env: NamingEnv,
  identity: AgentIdentity,
  region?: Region,
): DurableObjectStub<import("./memory-agent").MemoryAgent> {
  const namespace = agentNamespace(env, identity.jurisdiction);
  const id = namespace.idFromName(agentObjectName(identity));
  return region === undefined ? namespace.get(id) : namespace.get(id, { locationHint: region });
}
