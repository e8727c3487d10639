/**
 * Node rows of one agent. Every statement filters on the agent's registry id given at
 * construction: a repo cannot read or write another agent's rows.
 */
import { and, asc, count, desc, eq, max, min, sql } from "drizzle-orm";
import type { EntityAlias, MemoryNode, NodeFilter, NodePatch, TextUpdate } from "../vocabulary/records";
import { statement, type Statement } from "./batch";
import { filterConditions } from "./filter-sql";
import type { MemoryFilter } from "../vocabulary/memory-filter";
import type { Db } from "./db";
import { chunk, jsonList } from "./json-list";
import { loadNodes } from "./node-load";
import { filterSql, insertNodesSql, setFieldsSql, toMemoryNode } from "./node-columns";
import { nodes } from "./schema";

export interface NodeSummary {
  total: number;
  segments: number;
  entities: number;
  memories: number;
  episodes: number;
  /** Code points of segment content held now (comparable with characters ever remembered). */
  charactersHeld: number;
}

/** One version of a memory, as its history lists it. */
export interface Version {
  id: number;
  content: string;
  createdAt: number;
  supersededBy: number | null;
}

/** When a node last left the focus (src/memory/strength.ts). */
export interface NodeRelease {
  clock: number;
  epoch: number;
}

export class NodeRepo {
  constructor(
    private readonly db: Db,
    readonly agentUid: number,
  ) {}

  /**
   * Idempotent bulk insert: re-applying the same nodes inserts nothing twice. `ftsTokens`: each
   * node's full-text document length (the agent's own BM25 statistics, FtsRepo.statistics).
   */
  insertStatements(created: readonly (MemoryNode & { ftsTokens: number })[]): Statement[] {
    return chunk(created).map((rows) => statement(insertNodesSql(this.agentUid, rows)));
  }

  /** Records that `ids` left the focus at `clock` in task `epoch` (absolute values: idempotent). */
  releaseStatement(ids: readonly number[], release: NodeRelease): Statement {
    return statement(
      this.db
        .update(nodes)
        .set({ releasedClock: release.clock, releasedEpoch: release.epoch })
        .where(and(eq(nodes.agentUid, this.agentUid), sql`${nodes.id} IN ${jsonList(ids)}`)),
    );
  }

  /** Records aliases of entities (a later write of the same key moves it: idempotent). */
  aliasStatements(aliases: readonly EntityAlias[], now: number): Statement[] {
    return chunk(aliases).map((rows) =>
      statement(sql`
        INSERT INTO entity_aliases (agent, key, name, node_id, created_at)
        SELECT ${this.agentUid}, json_extract(value, '$.key'), json_extract(value, '$.name'), json_extract(value, '$.nodeId'), ${now}
        FROM json_each(${JSON.stringify(rows)}) WHERE true
        ON CONFLICT (agent, key) DO UPDATE SET name = excluded.name, node_id = excluded.node_id`),
    );
  }

  /** Every alias of the agent's entities (loading the graph). */
  async aliases(): Promise<EntityAlias[]> {
    return this.db.all<EntityAlias>(sql`SELECT key, name, node_id AS nodeId FROM entity_aliases WHERE agent = ${this.agentUid}`);
  }

  /** Sets the fields of a patch on nodes (absolute values: idempotent); none for an empty patch. */
  patchStatements(ids: readonly number[], fields: NodePatch): Statement[] {
    const set = setFieldsSql(fields);
    if (!set || ids.length === 0) return [];
    return [statement(sql`UPDATE nodes SET ${set} WHERE agent = ${this.agentUid} AND id IN ${jsonList(ids)}`)];
  }

  /**
   * Replaces nodes' content with their compressions (phrase and keywords re-extracted), any number
   * in one statement per chunk: a scan page compresses dozens, and a statement each was most of
   * the cost of building its batch (drizzle) and of running it (measured, docs/BENCHMARKS.md).
   */
  updateTextStatements(updates: readonly { update: TextUpdate; ftsTokens: number }[]): Statement[] {
    return chunk(updates).map((rows) => {
      const json = JSON.stringify(
        rows.map(({ update, ftsTokens }) => ({
          id: update.id,
          content: update.content,
          phrase: update.phrase,
          keywords: JSON.stringify(update.keywords),
          ftsTokens,
        })),
      );
      // The updates are materialised first so that SQLite walks them and seeks each node by key;
      // joined with json_each directly it walks every node of the agent for every update.
      return statement(sql`
        WITH u AS MATERIALIZED (
          SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.content') AS content,
                 json_extract(value, '$.phrase') AS phrase, json_extract(value, '$.keywords') AS keywords,
                 json_extract(value, '$.ftsTokens') AS fts_tokens
          FROM json_each(${json}))
        UPDATE nodes SET content = u.content, phrase = u.phrase, keywords = u.keywords, fts_tokens = u.fts_tokens
        FROM u WHERE nodes.agent = ${this.agentUid} AND nodes.id = u.id`);
    });
  }

  /** Deletes nodes (their outgoing links are deleted by LinkRepo.deleteOutgoingStatement). */
  deleteStatement(ids: readonly number[]): Statement {
    return statement(this.db.delete(nodes).where(and(eq(nodes.agentUid, this.agentUid), sql`${nodes.id} IN ${jsonList(ids)}`)));
  }

  /** Deletes the aliases that lead to `ids` (deleted entities take their other names with them). */
  deleteAliasesOfStatement(ids: readonly number[]): Statement {
    return statement(sql`DELETE FROM entity_aliases WHERE agent = ${this.agentUid} AND node_id IN ${jsonList(ids)}`);
  }

  /** Deletes aliases by key. */
  deleteAliasesStatement(keys: readonly string[]): Statement {
    return statement(sql`DELETE FROM entity_aliases WHERE agent = ${this.agentUid} AND key IN ${jsonList(keys)}`);
  }

  /** Sets the full-text document lengths of existing nodes (the upgrade of older rows). */
  ftsTokensStatement(lengths: readonly { id: number; tokens: number }[]): Statement {
    // Materialised first, as in updateTextStatements: otherwise every node is walked per length.
    return statement(sql`
      WITH l AS MATERIALIZED (
        SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.tokens') AS tokens FROM json_each(${JSON.stringify(lengths)}))
      UPDATE nodes SET fts_tokens = l.tokens FROM l WHERE nodes.agent = ${this.agentUid} AND nodes.id = l.id`);
  }

  /** Removes every node of the agent (agent deletion). */
  deleteAllStatement(): Statement {
    return statement(this.db.delete(nodes).where(eq(nodes.agentUid, this.agentUid)));
  }

  /** Removes every alias of the agent's entities (agent deletion). */
  deleteAllAliasesStatement(): Statement {
    return statement(sql`DELETE FROM entity_aliases WHERE agent = ${this.agentUid}`);
  }

  /** Up to `limit` of the agent's node ids, lowest first (agent deletion takes them chunk by chunk). */
  async someIds(limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(eq(nodes.agentUid, this.agentUid))
      .orderBy(asc(nodes.id))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /**
   * The nodes of a session in id order, above `after`, at most `limit` (its deletion takes them
   * chunk by chunk, by the index nodes_session); with `liveAt`, only those not expired then.
   */
  async ofSession(sessionId: string, after: number, limit: number, liveAt?: number): Promise<MemoryNode[]> {
    const rows = await this.db
      .select()
      .from(nodes)
      .where(
        and(
          eq(nodes.agentUid, this.agentUid),
          eq(nodes.sessionId, sessionId),
          sql`${nodes.id} > ${after}`,
          liveAt === undefined ? undefined : sql`(${nodes.expiresAt} IS NULL OR ${nodes.expiresAt} > ${liveAt})`,
        ),
      )
      .orderBy(asc(nodes.id))
      .limit(limit);
    return rows.map(toMemoryNode);
  }

  /** The nodes that one of `ids` superseded (their next versions are `ids`). */
  async supersededByAny(ids: readonly number[]): Promise<MemoryNode[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select()
      .from(nodes)
      .where(and(eq(nodes.agentUid, this.agentUid), sql`${nodes.supersededBy} IN ${jsonList(ids)}`));
    return rows.map(toMemoryNode);
  }

  /** Per session among `sessionIds`, the memories it holds at `now`: current versions, not expired. */
  async sessionCounts(sessionIds: readonly string[], now: number): Promise<Map<string, number>> {
    if (sessionIds.length === 0) return new Map();
    const rows = await this.db.all<{ session: string; n: number }>(sql`
      SELECT session_id AS session, count(*) AS n FROM nodes
      WHERE agent = ${this.agentUid} AND session_id IN ${jsonList(sessionIds)} AND kind <> 'entity'
        AND superseded_by IS NULL AND (expires_at IS NULL OR expires_at > ${now})
      GROUP BY session_id`);
    return new Map(rows.map((r) => [r.session, r.n]));
  }

  /** Existing entity nodes by normalised key, or by an alias key that leads to one. */
  async findEntities(keys: readonly string[]): Promise<Map<string, { nodeId: number; name: string }>> {
    const found = new Map<string, { nodeId: number; name: string }>();
    if (keys.length === 0) return found;
    const rows = await this.db.all<{ key: string; id: number; content: string }>(sql`
      SELECT n.name AS key, n.id AS id, n.content AS content FROM nodes n
      WHERE n.agent = ${this.agentUid} AND n.kind = 'entity' AND n.name IN ${jsonList(keys)}
      UNION ALL
      SELECT a.key AS key, n.id AS id, n.content AS content FROM entity_aliases a JOIN nodes n ON n.agent = a.agent AND n.id = a.node_id
      WHERE a.agent = ${this.agentUid} AND a.key IN ${jsonList(keys)}`);
    for (const row of rows) if (!found.has(row.key)) found.set(row.key, { nodeId: row.id, name: row.content });
    return found;
  }

  /** The aliases that lead to one entity. */
  async aliasesOf(nodeId: number): Promise<EntityAlias[]> {
    return this.aliasesOfNodes([nodeId]);
  }

  /** The aliases that lead to any of `nodeIds`, by key. */
  async aliasesOfNodes(nodeIds: readonly number[]): Promise<EntityAlias[]> {
    if (nodeIds.length === 0) return [];
    return this.db.all<EntityAlias>(
      sql`SELECT key, name, node_id AS nodeId FROM entity_aliases WHERE agent = ${this.agentUid} AND node_id IN ${jsonList(nodeIds)} ORDER BY key`,
    );
  }

  /**
   * The versions of a memory (docs/design.md, "Memory operations") in one statement: the corrections that
   * superseded it as long as they exist, and every version any of those superseded, recursively;
   * a page of them oldest first (ids above `after`, at most `limit`), and how many there are. Empty
   * when the node does not exist. The chain is walked inside SQLite, each step an index lookup (the
   * CROSS JOINs keep SQLite from scanning the agent's nodes once per step), so a chain of
   * thousands of versions is one round trip.
   */
  async versions(nodeId: number, after: number, limit: number, now: number): Promise<{ total: number; page: Version[] }> {
    const live = sql`(n.expires_at IS NULL OR n.expires_at > ${now})`;
    const rows = await this.db.all<Version & { total: number }>(sql`
      WITH RECURSIVE
        newer(id, next) AS (
          SELECT id, superseded_by FROM nodes WHERE agent = ${this.agentUid} AND id = ${nodeId}
          UNION
          SELECT n.id, n.superseded_by FROM newer CROSS JOIN nodes n WHERE n.agent = ${this.agentUid} AND n.id = newer.next),
        chain(id) AS (
          SELECT id FROM newer
          UNION
          SELECT n.id FROM chain CROSS JOIN nodes n WHERE n.agent = ${this.agentUid} AND n.superseded_by = chain.id)
      SELECT n.id AS id, n.content AS content, n.created_at AS createdAt, n.superseded_by AS supersededBy,
             (SELECT count(*) FROM chain CROSS JOIN nodes n WHERE n.agent = ${this.agentUid} AND n.id = chain.id AND ${live}) AS total
      FROM chain CROSS JOIN nodes n WHERE n.agent = ${this.agentUid} AND n.id = chain.id
        AND n.id > ${after} AND ${live}
      ORDER BY n.id
      LIMIT ${limit}`);
    return { total: rows[0]?.total ?? 0, page: rows.map(({ total: _total, ...v }) => v) };
  }

  /**
   * The versions `nodeIds` superseded, recursively (one statement; a purge takes them all). A
   * deleted node's earlier versions still name it, so they are found too.
   */
  async olderVersions(nodeIds: readonly number[]): Promise<number[]> {
    if (nodeIds.length === 0) return [];
    const rows = await this.db.all<{ id: number }>(sql`
      WITH RECURSIVE older(id) AS (
        SELECT id FROM nodes WHERE agent = ${this.agentUid} AND superseded_by IN ${jsonList(nodeIds)}
        UNION
        SELECT n.id FROM older CROSS JOIN nodes n WHERE n.agent = ${this.agentUid} AND n.superseded_by = older.id)
      SELECT id FROM older WHERE id NOT IN ${jsonList(nodeIds)} ORDER BY id`);
    return rows.map((r) => r.id);
  }

  /** Which of `messageIds` a node other than `except` still came from (a purge keeps those held). */
  async messagesStillUsed(messageIds: readonly string[], except: readonly number[]): Promise<Set<string>> {
    if (messageIds.length === 0) return new Set();
    const rows = await this.db.all<{ id: string }>(sql`
      SELECT DISTINCT m.value AS id FROM nodes n, json_each(n.source_message_ids) m
      WHERE n.agent = ${this.agentUid} AND n.id NOT IN ${jsonList(except)} AND m.value IN ${jsonList(messageIds)}`);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Memories of the given kinds, newest (highest id) first, below `before` when given: a keyset
   * page. Superseded ones only when asked for.
   */
  async listMemories(filter: {
    kinds: readonly string[];
    before?: number | undefined;
    limit: number;
    includeSuperseded: boolean;
    /** The read's filter at its clock (expired memories are never listed). */
    filter: MemoryFilter;
    now: number;
  }): Promise<MemoryNode[]> {
    const rows = await this.db
      .select()
      .from(nodes)
      .where(
        and(
          eq(nodes.agentUid, this.agentUid),
          sql`${nodes.kind} IN ${jsonList(filter.kinds)}`,
          filter.before === undefined ? undefined : sql`${nodes.id} < ${filter.before}`,
          filter.includeSuperseded ? undefined : sql`${nodes.supersededBy} IS NULL`,
          sql`1 ${filterConditions(filter.filter, filter.now)}`,
        ),
      )
      .orderBy(desc(nodes.id))
      .limit(filter.limit);
    return rows.map(toMemoryNode);
  }

  /** The nodes among `ids` that exist (one round trip however many ids; node-load.ts). */
  load(ids: readonly number[]): Promise<Map<number, MemoryNode>> {
    return loadNodes(this.db, this.agentUid, ids);
  }

  /** The nodes a filter selects (`{ kind: "episode" }`), newest first, at most `limit`; with a scope, those not expired that pass its filter. */
  async find(filter: NodeFilter, limit: number, scope?: { filter: MemoryFilter; now: number }): Promise<MemoryNode[]> {
    const rows = await this.db
      .select()
      .from(nodes)
      .where(
        and(
          eq(nodes.agentUid, this.agentUid),
          ...filterSql(filter),
          scope ? sql`1 ${filterConditions(scope.filter, scope.now)}` : undefined,
        ),
      )
      .orderBy(desc(nodes.id))
      .limit(limit);
    return rows.map(toMemoryNode);
  }

  async get(id: number): Promise<MemoryNode | undefined> {
    return (await this.load([id])).get(id);
  }

  async summary(): Promise<NodeSummary> {
    const [row] = await this.db
      .select({
        total: sql<number>`count(*)`,
        segments: sql<number>`coalesce(sum(${nodes.kind} = 'segment'), 0)`,
        entities: sql<number>`coalesce(sum(${nodes.kind} = 'entity'), 0)`,
        memories: sql<number>`coalesce(sum(${nodes.kind} = 'memory'), 0)`,
        episodes: sql<number>`coalesce(sum(${nodes.kind} = 'episode'), 0)`,
        // Segment text only: entity names are labels, not remembered conversation.
        charactersHeld: sql<number>`coalesce(sum(CASE WHEN ${nodes.kind} = 'segment' THEN length(${nodes.content}) ELSE 0 END), 0)`,
      })
      .from(nodes)
      .where(eq(nodes.agentUid, this.agentUid));
    return {
      total: row?.total ?? 0,
      segments: row?.segments ?? 0,
      entities: row?.entities ?? 0,
      memories: row?.memories ?? 0,
      episodes: row?.episodes ?? 0,
      charactersHeld: row?.charactersHeld ?? 0,
    };
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(nodes).where(eq(nodes.agentUid, this.agentUid));
    return row?.n ?? 0;
  }

  async idRange(): Promise<{ min: number; max: number } | undefined> {
    const [row] = await this.db
      .select({ min: min(nodes.id), max: max(nodes.id) })
      .from(nodes)
      .where(eq(nodes.agentUid, this.agentUid));
    return row?.min != null && row.max != null ? { min: row.min, max: row.max } : undefined;
  }

  /** Every node id (the fallback when sampling finds too few nodes; scan bookkeeping upgrades). */
  async allIds(): Promise<number[]> {
    const rows = await this.db.select({ id: nodes.id }).from(nodes).where(eq(nodes.agentUid, this.agentUid));
    return rows.map((r) => r.id);
  }

  /** Nodes after `afterId` in id order (loading the agent's graph into memory). */
  async page(afterId: number, limit: number): Promise<MemoryNode[]> {
    const rows = await this.db
      .select()
      .from(nodes)
      .where(and(eq(nodes.agentUid, this.agentUid), sql`${nodes.id} > ${afterId}`))
      .orderBy(asc(nodes.id))
      .limit(limit);
    return rows.map(toMemoryNode);
  }
}
