/**
 * The full-text index rows of one agent (nodes_fts, FTS5). A row's rowid is agent · 2^30 + node
 * id, so every statement is bounded to the agent's own rowid range: FTS5 uses that range together
 * with MATCH, and no query can return another agent's node. FTS5's own bm25() is never used: its
 * statistics are per table, i.e. shared by every agent of the database; this repo finds
 * candidates and counts the agent's own statistics, and src/search/bm25-candidates.ts scores.
 */
import { sql } from "drizzle-orm";
import { MAX_NODE_ID } from "../config/limits";
import type { CorpusStats } from "../search/bm25-candidates";
import type { NodeKind } from "../vocabulary/node-kinds";
import { statement, type Statement } from "./batch";
import type { Db } from "./db";
import { filterConditions } from "./filter-sql";
import { chunk, jsonList } from "./json-list";
import type { MemoryFilter } from "../vocabulary/memory-filter";

/** Node ids per agent in the rowid space: 2^30 ≈ 1.07 billion (node ids are never reused). */
export const FTS_AGENT_STRIDE = MAX_NODE_ID + 1;

/**
 * A node id outside 1…MAX_NODE_ID would address another agent's rowid range (agent · 2^30 + id):
 * a bug or a crafted input, never written.
 */
export class NodeIdRangeError extends RangeError {
  override readonly name = "NodeIdRangeError";
}

function isNodeId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_NODE_ID;
}

export interface FtsEntry {
  nodeId: number;
  terms: string;
}

/** Which nodes a search may find (docs/design.md, "Filters choose what a read returns, not what it walks"). */
export interface TextFilters {
  kinds: readonly NodeKind[];
  /** The read's filter (sessions, speakers, tags, alternatives, time range); expiry at `now` always applies. */
  filter: MemoryFilter;
  now: number;
  /** Entities among `kinds` pass whatever the filter says (recall's hubs: walked through, never returned). */
  hubs?: boolean;
}

export class FtsRepo {
  private readonly low: number;
  private readonly high: number;

  constructor(
    private readonly db: Db,
    readonly agentUid: number,
  ) {
    this.low = agentUid * FTS_AGENT_STRIDE;
    this.high = this.low + FTS_AGENT_STRIDE - 1;
  }

  /**
   * Adds or replaces index rows (idempotent: a re-run writes the same rows). Every write and
   * deletion is bounded to the agent's rowid range twice: the ids are checked here, and the
   * statement itself touches no rowid outside the range.
   */
  upsertStatements(entries: readonly FtsEntry[]): Statement[] {
    const outside = entries.find((e) => !isNodeId(e.nodeId));
    if (outside) {
      throw new NodeIdRangeError(
        `node id ${outside.nodeId} is outside 1…${MAX_NODE_ID}: its full-text row would leave the agent's rowid range`,
      );
    }
    return chunk(entries).map((rows) =>
      statement(sql`
        INSERT OR REPLACE INTO nodes_fts (rowid, terms)
        SELECT r, t FROM (
          SELECT ${this.low} + json_extract(value, '$.nodeId') AS r, json_extract(value, '$.terms') AS t
          FROM json_each(${JSON.stringify(rows)}))
        WHERE r BETWEEN ${this.low + 1} AND ${this.high}`),
    );
  }

  /** Deletes index rows; an id outside the range has none of this agent's rows, and deletes nothing. */
  deleteStatement(nodeIds: readonly number[]): Statement {
    return statement(sql`
      DELETE FROM nodes_fts WHERE rowid BETWEEN ${this.low + 1} AND ${this.high}
        AND rowid IN (SELECT ${this.low} + value FROM json_each(${JSON.stringify(nodeIds.filter(isNodeId))}))`);
  }

  deleteAllStatement(): Statement {
    return statement(sql`DELETE FROM nodes_fts WHERE rowid BETWEEN ${this.low} AND ${this.high}`);
  }

  /**
   * Nodes matching `match` (an FTS5 expression) with their index terms, filtered by kind and time:
   * the newest `cap` (never ordered by FTS5's bm25(), whose statistics are the whole database's).
   */
  async candidates(match: string, filters: TextFilters, cap: number): Promise<{ id: number; terms: string }[]> {
    return this.db.all<{ id: number; terms: string }>(sql`
      SELECT n.id AS id, nodes_fts.terms AS terms
      FROM nodes_fts JOIN nodes n ON n.agent = ${this.agentUid} AND n.id = nodes_fts.rowid - ${this.low}
      WHERE nodes_fts MATCH ${match} AND nodes_fts.rowid BETWEEN ${this.low} AND ${this.high}
        AND n.kind IN ${jsonList(filters.kinds)} AND n.superseded_by IS NULL ${scopeFilter(filters)}
      ORDER BY nodes_fts.rowid DESC
      LIMIT ${cap}`);
  }

  /**
   * The agent's own BM25 statistics: its documents, their total tokens, and for each of `tokens`
   * the number of its documents holding it (counted within its rowid range).
   */
  async statistics(tokens: readonly string[]): Promise<CorpusStats> {
    // One statement for any number of tokens (a compound SELECT per token hits D1's limit on
    // compound terms): each token's quoted MATCH expression is built from json_each.
    const [totals, frequencies] = await Promise.all([
      this.db.all<{ documents: number; tokens: number }>(
        sql`SELECT count(*) AS documents, total(fts_tokens) AS tokens FROM nodes WHERE agent = ${this.agentUid}`,
      ),
      tokens.length > 0
        ? this.db.all<{ token: string; n: number }>(sql`
            SELECT t.value AS token,
              (SELECT count(*) FROM nodes_fts WHERE nodes_fts MATCH '"' || replace(t.value, '"', '""') || '"'
                AND rowid BETWEEN ${this.low} AND ${this.high}) AS n
            FROM json_each(${JSON.stringify(tokens)}) t`)
        : Promise.resolve([]),
    ]);
    return {
      documents: totals[0]?.documents ?? 0,
      tokens: totals[0]?.tokens ?? 0,
      documentFrequency: new Map(frequencies.map((f) => [f.token, f.n])),
    };
  }

  /**
   * Nodes whose content contains any of `substrings`: the fallback for Chinese words the segmenter
   * cut differently in the query and in the memory (用户 inside 用户系统). Newest first.
   */
  async substrings(substrings: readonly string[], filters: TextFilters, limit: number): Promise<number[]> {
    if (substrings.length === 0) return [];
    const ids: number[] = [];
    for (const part of chunk(substrings, 20)) {
      const rows = await this.db.all<{ id: number }>(sql`
        SELECT n.id AS id FROM nodes n
        WHERE n.agent = ${this.agentUid} AND n.kind IN ${jsonList(filters.kinds)} AND n.superseded_by IS NULL ${scopeFilter(filters)}
          AND EXISTS (SELECT 1 FROM json_each(${JSON.stringify(part)}) s WHERE instr(n.content, s.value) > 0)
        ORDER BY n.id DESC
        LIMIT ${limit}`);
      for (const r of rows) if (!ids.includes(r.id)) ids.push(r.id);
    }
    return ids.slice(0, limit);
  }
}

/** The read's filter on the candidates (src/storage/filter-sql.ts); hubs (entities) pass it when asked for. */
function scopeFilter(filters: TextFilters) {
  const conditions = filterConditions(filters.filter, filters.now, "n");
  return filters.hubs ? sql`AND (n.kind = 'entity' OR (1 ${conditions}))` : conditions;
}
