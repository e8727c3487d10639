/**
 * The agent registry in the primary D1 database: maps (tenant, agent id) to the agent's registry
 * id and to where its memory lives — its D1 shard with its key there, and its Vectorize index —
 * chosen once, when the agent registers (docs/design.md, "Scale and limits"). It also records when each agent next
 * has work due, so the cron safety net can find the agents that need waking without touching idle
 * ones.
 */
import { and, asc, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import { MAX_AGENT_UID } from "../config/limits";
import type { AgentIdentity } from "../vocabulary/identity";
import { jurisdictionOf, type Jurisdiction } from "../vocabulary/jurisdictions";
import { regionOf, type Region } from "../vocabulary/regions";
import { runBatch, statement, type Statement } from "./batch";
import { PRIMARY_D1_BINDING } from "./d1-shards";
import { createDb, type Db } from "./db";
import { agents } from "./schema";
import { Tenants } from "./tenants";
import { d1Candidates, StorageShards, vectorIndexCandidate } from "./storage-shards";
import { DEFAULT_VECTORIZE_BINDING } from "../vectors/providers";

/**
 * No shard can take a new agent: every D1 shard is full (its keys or its size), or every
 * Vectorize index is. Answered with 503 until an operator adds one (docs/deploy.md).
 */
export class RegistryFullError extends Error {
  override readonly name = "RegistryFullError";
}

/** The tenant has as many agents as its quota allows (docs/deploy.md, "Quotas"): answered 429 quota_exceeded. */
export class AgentQuotaError extends Error {
  override readonly name = "AgentQuotaError";
  /** Nothing frees the quota with time: an hour is when asking again is worth it. */
  readonly retryAfterS = 3_600;
  constructor(readonly limit: number) {
    super(`the tenant has its ${limit} agents (its agents quota): delete one, or ask the operator for more`);
  }
}

/**
 * The agent cannot be placed as asked (answered 409 conflict, nothing written): it exists in
 * another jurisdiction, its tenant's jurisdiction changed since the request's key was read, or
 * nothing is configured for its jurisdiction (no silent fallback to storage outside it).
 */
export class PlacementError extends Error {
  override readonly name = "PlacementError";
}

/** The Vectorize binding of agents registered before indexes were assigned. */
export const LEGACY_VECTORIZE_BINDING = DEFAULT_VECTORIZE_BINDING;

/** Where an agent's memory lives, as recorded when it registered. */
export interface Placement {
  /** The registry id, unique across the service: the agent's vector namespace and ids. */
  uid: number;
  /** The D1 shard's binding, and the agent's key there (the `agent` column of its rows). */
  d1: string;
  key: number;
  /** The Vectorize index's binding; null with the local vector index. */
  vectors: string | null;
  /** The jurisdiction it was created in; null: none. */
  jurisdiction: Jurisdiction | null;
  /** The region its shard was chosen in; null: none. */
  region: Region | null;
}

/** Where new agents may go: the configured bindings, in configuration order. */
export interface PlacementOptions {
  d1: readonly string[];
  /** Empty with the local vector index (no Vectorize index is assigned). */
  vectors: readonly string[];
  /** Its jurisdiction; `d1` and `vectors` are then the shards and indexes configured for it. */
  jurisdiction?: Jurisdiction;
  /** Its region (recorded); `d1` are then the shards of that region. */
  region?: Region;
  /** The tenant's agents quota: a new agent is registered only while the tenant has fewer. */
  maxAgents?: number;
}

/** One registered agent as listed to its tenant. */
export interface AgentListing {
  agentId: string;
  createdAt: number;
  lastActiveAt: number;
}

/**
 * The placement of an agent registered before sharding: the primary database with its registry id
 * as key, and the one Vectorize binding there was (when Vectorize is in use).
 */
export function legacyPlacement(uid: number, vectorsInUse: boolean): Placement {
  return {
    uid,
    d1: PRIMARY_D1_BINDING,
    key: uid,
    vectors: vectorsInUse ? LEGACY_VECTORIZE_BINDING : null,
    jurisdiction: null,
    region: null,
  };
}

export class AgentRegistry {
  private readonly db: Db;
  readonly shards: StorageShards;

  /** `d1`: the primary database. */
  constructor(private readonly d1: D1Database) {
    this.db = createDb(d1);
    this.shards = new StorageShards(this.db);
  }

  /**
   * The agent's placement, registering it on first use: a D1 shard (the open one with the fewest
   * agents) with the next key of that shard, and a Vectorize index (the first open one). Taking a
   * key and inserting the agent are one transaction; a shard that filled up meanwhile is skipped
   * for the next. Registering twice answers the first placement. A tenant at its agents quota gets
   * no new agent (AgentQuotaError): the count is in the insert's own statement, so concurrent first
   * writes of a tenant's agents can never pass it together. The agent is placed in `jurisdiction`
   * only while that is its tenant's (also in the insert's statement), and an agent already placed
   * in another is refused (PlacementError): an agent never moves between jurisdictions.
   */
  async ensure(identity: AgentIdentity, now: number, options: PlacementOptions): Promise<Placement> {
    const jurisdiction = options.jurisdiction ?? null;
    const known = await this.placementOf(identity, options.vectors.length > 0);
    if (known && known.jurisdiction !== jurisdiction) {
      throw new PlacementError(
        `agent ${identity.agentId} was created in ${known.jurisdiction ?? "no jurisdiction"}, not ${jurisdiction ?? "none"}`,
      );
    }
    if (known) {
      await this.db
        .update(agents)
        .set({ lastActiveAt: now })
        .where(and(eq(agents.tenantId, identity.tenantId), eq(agents.agentId, identity.agentId)));
      return known;
    }
    if (options.d1.length === 0) throw new PlacementError(`no D1 shard is configured for agents in ${jurisdiction ?? "no jurisdiction"}`);
    const statuses = await this.shards.list();
    const vectors = options.vectors.length > 0 ? vectorIndexCandidate(options.vectors, statuses) : null;
    if (vectors === undefined) throw new RegistryFullError("every Vectorize index is full: no index can take a new agent");
    for (const shard of d1Candidates(options.d1, statuses)) {
      await runBatch(this.d1, this.registerStatements(identity, now, shard, vectors, options, jurisdiction));
      const placed = await this.placementOf(identity, vectors !== null);
      if (placed && placed.jurisdiction !== jurisdiction)
        throw new PlacementError(`agent ${identity.agentId} was just created in another jurisdiction`);
      if (placed) return placed;
      // Not inserted: the shard was full, or the tenant is at its quota (counted in the same statement).
      if (options.maxAgents !== undefined && (await this.countOfTenant(identity.tenantId)) >= options.maxAgents) {
        throw new AgentQuotaError(options.maxAgents);
      }
      if ((await new Tenants(this.db).record(identity.tenantId)).jurisdiction !== jurisdiction) {
        throw new PlacementError(
          `the tenant's jurisdiction is no longer ${jurisdiction ?? "none"}: retry in a minute, once the key is read again`,
        );
      }
    }
    throw new RegistryFullError("every D1 shard is full: no database can take a new agent");
  }

  /**
   * Registers the agent on `shard` with that shard's next key, in one transaction: the shard's
   * row is created if needed (its first key above every key it already holds), the agent is
   * inserted unless the shard is full, and the shard's next key and the index's agent count move
   * on only if the agent now holds that key (it was inserted here, not registered before).
   */
  private registerStatements(
    identity: AgentIdentity,
    now: number,
    shard: string,
    vectors: string | null,
    { maxAgents, region }: PlacementOptions,
    jurisdiction: Jurisdiction | null,
  ): Statement[] {
    const { tenantId, agentId } = identity;
    const holdsNextKey = sql`(SELECT d1_key FROM agents WHERE tenant_id = ${tenantId} AND agent_id = ${agentId} AND d1_shard = ${shard})
      = (SELECT next_key FROM storage_shards WHERE kind = 'd1' AND binding = ${shard})`;
    const out: Statement[] = [
      statement(sql`
        INSERT INTO storage_shards (kind, binding, next_key, agents)
        SELECT 'd1', ${shard}, coalesce(max(coalesce(d1_key, id)), 0) + 1, count(*) FROM agents WHERE d1_shard = ${shard}
        ON CONFLICT DO NOTHING`),
    ];
    if (shard === PRIMARY_D1_BINDING) {
      // The primary also holds the agents registered before sharding, whose key is their registry
      // id, and a previous release may still register one while this one rolls out: the primary's
      // keys never fall below the registry's ids, so no key is ever shared with such an agent.
      out.push(
        statement(sql`
          UPDATE storage_shards SET next_key = max(next_key, (SELECT coalesce(max(id), 0) + 1 FROM agents))
          WHERE kind = 'd1' AND binding = ${shard}`),
      );
    }
    if (vectors !== null) {
      // Agents registered before indexes were assigned (vector_index null) are on the legacy binding.
      out.push(
        statement(sql`
          INSERT INTO storage_shards (kind, binding, next_key, agents)
          SELECT 'vectorize', ${vectors}, 1, count(*) FROM agents
          WHERE coalesce(vector_index, ${LEGACY_VECTORIZE_BINDING}) = ${vectors}
          ON CONFLICT DO NOTHING`),
      );
    }
    out.push(
      statement(sql`
        INSERT INTO agents (tenant_id, agent_id, created_at, last_active_at, d1_shard, d1_key, vector_index, jurisdiction, region)
        SELECT ${tenantId}, ${agentId}, ${now}, ${now}, binding, next_key, ${vectors}, ${jurisdiction}, ${region ?? null} FROM storage_shards
        WHERE kind = 'd1' AND binding = ${shard} AND full_at IS NULL AND next_key <= ${MAX_AGENT_UID}
          AND (SELECT jurisdiction FROM tenants WHERE tenant_id = ${tenantId}) IS ${jurisdiction}
          ${maxAgents === undefined ? sql`` : sql`AND (SELECT count(*) FROM agents WHERE tenant_id = ${tenantId}) < ${maxAgents}`}
        ON CONFLICT (tenant_id, agent_id) DO NOTHING`),
    );
    // The index first: its condition reads the shard's next key before the shard's own update moves it.
    if (vectors !== null) {
      out.push(
        statement(sql`UPDATE storage_shards SET agents = agents + 1 WHERE kind = 'vectorize' AND binding = ${vectors} AND ${holdsNextKey}`),
      );
    }
    out.push(
      statement(
        sql`UPDATE storage_shards SET next_key = next_key + 1, agents = agents + 1 WHERE kind = 'd1' AND binding = ${shard} AND ${holdsNextKey}`,
      ),
    );
    return out;
  }

  /** Where a registered agent's memory lives; undefined before it registered. */
  async placementOf(identity: AgentIdentity, vectorsInUse: boolean): Promise<Placement | undefined> {
    const [row] = await this.db
      .select({
        id: agents.id,
        d1Shard: agents.d1Shard,
        d1Key: agents.d1Key,
        vectorIndex: agents.vectorIndex,
        jurisdiction: agents.jurisdiction,
        region: agents.region,
      })
      .from(agents)
      .where(and(eq(agents.tenantId, identity.tenantId), eq(agents.agentId, identity.agentId)))
      .limit(1);
    if (!row) return undefined;
    const legacy = legacyPlacement(row.id, vectorsInUse);
    return {
      uid: row.id,
      d1: row.d1Shard,
      key: row.d1Key ?? legacy.key,
      vectors: vectorsInUse ? (row.vectorIndex ?? legacy.vectors) : null,
      jurisdiction: jurisdictionOf(row.jurisdiction),
      region: regionOf(row.region),
    };
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

  /** Agents whose work was due at or before `now`, oldest first, each with its jurisdiction (its object's namespace). */
  async due(now: number, limit: number): Promise<AgentIdentity[]> {
    const rows = await this.db
      .select({ tenantId: agents.tenantId, agentId: agents.agentId, jurisdiction: agents.jurisdiction })
      .from(agents)
      .where(and(isNotNull(agents.dueAt), lte(agents.dueAt, now)))
      .orderBy(asc(agents.dueAt))
      .limit(limit);
    return rows.map(({ tenantId, agentId, jurisdiction }) =>
      jurisdiction === null ? { tenantId, agentId } : { tenantId, agentId, jurisdiction },
    );
  }

  /**
   * Removes the agent's row (agent deletion, once its memory rows are gone from its shard). Its
   * shard key is never handed out again.
   */
  async remove(agentUid: number): Promise<void> {
    await this.db.delete(agents).where(eq(agents.id, agentUid));
  }

  /**
   * One page of a tenant's agents in agent id order, after `afterAgentId` (keyset paging on the
   * unique (tenant_id, agent_id) index: stable while agents are added or removed), only those whose
   * id starts with `agentPrefix` when given. Reads one row beyond `limit` to tell whether another
   * page follows.
   */
  async listByTenant(
    tenantId: string,
    afterAgentId: string | undefined,
    limit: number,
    agentPrefix: string | null = null,
  ): Promise<{ agents: AgentListing[]; more: boolean }> {
    const rows = await this.db
      .select({ agentId: agents.agentId, createdAt: agents.createdAt, lastActiveAt: agents.lastActiveAt })
      .from(agents)
      .where(
        and(
          eq(agents.tenantId, tenantId),
          afterAgentId === undefined ? undefined : gt(agents.agentId, afterAgentId),
          // Agent ids hold none of GLOB's special characters (AGENT_ID_PATTERN): the prefix is literal.
          agentPrefix === null ? undefined : sql`${agents.agentId} GLOB ${`${agentPrefix}*`}`,
        ),
      )
      .orderBy(asc(agents.agentId))
      .limit(limit + 1);
    return { agents: rows.slice(0, limit), more: rows.length > limit };
  }

  /** Agents the tenant has registered now (its agents quota counts them). */
  async countOfTenant(tenantId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)` })
      .from(agents)
      .where(eq(agents.tenantId, tenantId));
    return row?.n ?? 0;
  }

  /** Number of registered agents (health and tests). */
  async count(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)` }).from(agents);
    return row?.n ?? 0;
  }
}
