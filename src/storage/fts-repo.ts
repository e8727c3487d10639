/**
 * The full-text index rows of one agent (nodes_fts, FTS5, BM25). A row's rowid is
 * agent · 2^30 + node id, so every statement is bounded to the agent's own rowid range: FTS5 uses
 * that range together with MATCH, and no query can return another agent's node. (BM25's term
 * statistics are per D1 database, as FTS5 keeps them per table.)
 */
import { sql } from "drizzle-orm";
import type { NodeKind } from "../vocabulary/node-kinds";
import { statement, type Statement } from "./batch";
import type { Db } from "./db";
import { chunk, jsonList } from "./json-list";

/** Node ids per agent in the rowid space: 2^30 ≈ 1.07 billion (node ids are never reused). */
export const FTS_AGENT_STRIDE = 2 ** 30;

export interface FtsEntry {
  nodeId: number;
  terms: string;
}

export interface TextFilters {
  kinds: readonly NodeKind[];
  /** Inclusive bounds on the node's time (its messages' timestamp, else when it was remembered). */
  from?: number | undefined;
  to?: number | undefined;
}

export interface FtsHit {
  nodeId: number;
  /** BM25 relevance, higher is better (FTS5's bm25() negated). */
  score: number;
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

  /** Adds or replaces index rows (idempotent: a re-run writes the same rows). */
  upsertStatements(entries: readonly FtsEntry[]): Statement[] {
    return chunk(entries).map((rows) =>
      statement(sql`
        INSERT OR REPLACE INTO nodes_fts (rowid, terms)
        SELECT ${this.low} + json_extract(value, '$.nodeId'), json_extract(value, '$.terms')
        FROM json_each(${JSON.stringify(rows)})`),
    );
  }

  deleteStatement(nodeIds: readonly number[]): Statement {
    return statement(sql`DELETE FROM nodes_fts WHERE rowid IN (SELECT ${this.low} + value FROM json_each(${JSON.stringify(nodeIds)}))`);
  }

  deleteAllStatement(): Statement {
    return statement(sql`DELETE FROM nodes_fts WHERE rowid BETWEEN ${this.low} AND ${this.high}`);
  }

  /** BM25-ranked nodes matching `match` (an FTS5 expression), filtered by kind and time. */
  async search(match: string, filters: TextFilters, limit: number): Promise<FtsHit[]> {
    const rows = await this.db.all<{ id: number; rank: number }>(sql`
      SELECT n.id AS id, bm25(nodes_fts) AS rank
      FROM nodes_fts JOIN nodes n ON n.agent = ${this.agentUid} AND n.id = nodes_fts.rowid - ${this.low}
      WHERE nodes_fts MATCH ${match} AND nodes_fts.rowid BETWEEN ${this.low} AND ${this.high}
        AND n.kind IN ${jsonList(filters.kinds)} ${timeFilter(filters)}
      ORDER BY rank, n.id DESC
      LIMIT ${limit}`);
    return rows.map((r) => ({ nodeId: r.id, score: -r.rank }));
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
        WHERE n.agent = ${this.agentUid} AND n.kind IN ${jsonList(filters.kinds)} ${timeFilter(filters)}
          AND EXISTS (SELECT 1 FROM json_each(${JSON.stringify(part)}) s WHERE instr(n.content, s.value) > 0)
        ORDER BY n.id DESC
        LIMIT ${limit}`);
      for (const r of rows) if (!ids.includes(r.id)) ids.push(r.id);
    }
    return ids.slice(0, limit);
  }
}

function timeFilter(filters: TextFilters) {
  const from = filters.from === undefined ? sql`` : sql`AND coalesce(n.message_time, n.created_at) >= ${filters.from}`;
  const to = filters.to === undefined ? sql`` : sql`AND coalesce(n.message_time, n.created_at) <= ${filters.to}`;
  return sql`${from} ${to}`;
}
