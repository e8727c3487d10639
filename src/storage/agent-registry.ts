/**
 * The agent registry in D1: maps (tenant, agent id) to the integer id that keys every memory row,
 * and records when each agent next has work due, so the cron safety net can find the agents that
 * need waking without touching idle ones.
 */
import { and, asc, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import { MAX_AGENT_UID } from "../config/limits";
import type { AgentIdentity } from "../vocabulary/identity";
import { statement, type Statement } from "./batch";
import type { Db } from "./db";
import { agents } from "./schema";

/** This database holds as many agents as its full-text rowids can address (MAX_AGENT_UID). */
export class RegistryFullError extends Error {
  override readonly name = "RegistryFullError";
}

/** One registered agent as listed to its tenant. */
export interface AgentListing {
  agentId: string;
  createdAt: number;
  lastActiveAt: number;
}

export class AgentRegistry {
  constructor(private readonly db: Db) {}

  /** The agent's row id, creating the row on first use. */
  async ensure(identity: AgentIdentity, now: number): Promise<number> {
    const [row] = await this.db
      .insert(agents)
      .values({ tenantId: identity.tenantId, agentId: identity.agentId, createdAt: now, lastActiveAt: now })
      .onConflictDoUpdate({ target: [agents.tenantId, agents.agentId], set: { lastActiveAt: now } })
      .returning({ id: agents.id });
    if (!row) throw new Error("agent registry upsert returned no row");
    if (row.id > MAX_AGENT_UID) {
      await this.db.delete(agents).where(eq(agents.id, row.id));
      throw new RegistryFullError(`this database holds ${MAX_AGENT_UID} agents, the most its full-text index can address`);
    }
    return row.id;
  }

  async find(identity: AgentIdentity): Promise<number | undefined> {
    const [row] = await this.db
      .select({ id: agents.id })
      .from(agents)
      .where(and(eq(agents.tenantId, identity.tenantId), eq(agents.agentId, identity.agentId)))
      .limit(1);
    return row?.id;
  }

  /** Records the earliest moment the agent has work due (null: idle). */
  async setDue(agentUid: number, dueAt: number | null, now: number): Promise<void> {
    await this.db.update(agents).set({ dueAt, lastActiveAt: now }).where(eq(agents.id, agentUid));
  }

  /** Agents whose work was due at or before `now`, oldest first. */
  async due(now: number, limit: number): Promise<AgentIdentity[]> {
    return this.db
      .select({ tenantId: agents.tenantId, agentId: agents.agentId })
      .from(agents)
      .where(and(isNotNull(agents.dueAt), lte(agents.dueAt, now)))
      .orderBy(asc(agents.dueAt))
      .limit(limit);
  }

  /** Removes the agent's row (agent deletion, in the same batch as its memory rows). */
  removeStatement(agentUid: number): Statement {
    return statement(this.db.delete(agents).where(eq(agents.id, agentUid)));
  }

  /**
   * One page of a tenant's agents in agent id order, after `afterAgentId` (keyset paging on the
   * unique (tenant_id, agent_id) index: stable while agents are added or removed). Reads one row
   * beyond `limit` to tell whether another page follows.
   */
  async listByTenant(
    tenantId: string,
    afterAgentId: string | undefined,
    limit: number,
  ): Promise<{ agents: AgentListing[]; more: boolean }> {
    const rows = await this.db
      .select({ agentId: agents.agentId, createdAt: agents.createdAt, lastActiveAt: agents.lastActiveAt })
      .from(agents)
      .where(
        afterAgentId === undefined ? eq(agents.tenantId, tenantId) : and(eq(agents.tenantId, tenantId), gt(agents.agentId, afterAgentId)),
      )
      .orderBy(asc(agents.agentId))
      .limit(limit + 1);
    return { agents: rows.slice(0, limit), more: rows.length > limit };
  }

  /** Number of registered agents (health and tests). */
  async count(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)` }).from(agents);
    return row?.n ?? 0;
  }
}
