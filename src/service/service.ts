/**
 * Service-wide reads that are not one agent's (the health check, a tenant's agent list): the HTTP
 * layer reaches the database only through the agent layer.
 */
import { sql } from "drizzle-orm";
import { AgentRegistry, type AgentListing } from "../storage/agent-registry";
import { createDb } from "../storage/db";

/** One round trip to D1; throws when it cannot be reached. */
export async function checkDatabase(env: Pick<Env, "DB">): Promise<void> {
  await createDb(env.DB).run(sql`SELECT 1`);
}

/** One page of a tenant's agents in agent id order, after `afterAgentId` (the registry's keyset page). */
export async function listAgents(
  env: Pick<Env, "DB">,
  tenantId: string,
  afterAgentId: string | undefined,
  limit: number,
): Promise<{ agents: AgentListing[]; more: boolean }> {
  return new AgentRegistry(env.DB).listByTenant(tenantId, afterAgentId, limit);
}
