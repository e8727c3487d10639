/**
 * A tenant's agents, for GET /v1/agents: a read of the agent registry that is no one agent's, so
 * the endpoint reaches the database through this service layer, not through an agent.
 */
import { AgentRegistry, type AgentListing } from "../storage/agent-registry";

/**
 * One page of a tenant's agents in agent id order, after `afterAgentId` (the registry's keyset
 * page); a key limited to an agent-id prefix sees only the agents within it.
 */
export async function tenantAgents(
  env: Pick<Env, "DB">,
  tenantId: string,
  afterAgentId: string | undefined,
  limit: number,
  agentPrefix: string | null = null,
): Promise<{ agents: AgentListing[]; more: boolean }> {
  return new AgentRegistry(env.DB).listByTenant(tenantId, afterAgentId, limit, agentPrefix);
}
