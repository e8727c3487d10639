/**
 * Link rows of one agent. Strengths are stored as levels against the agent's decay clock (see
 * src/memory/strength.ts); this repo converts them to strengths for its callers, given the clock.
 */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Edge } from "../memory/bfs";
import type { GraphLink } from "../memory/graph";
import type { PlannedLink } from "../memory/remember-plan";
import { PINNED_LEVEL, strengthAt } from "../memory/strength";
import { statement, type Statement } from "./batch";
import type { Db } from "./db";
import { chunk, jsonList } from "./json-list";
import { links } from "./schema";

export interface LinkView extends Edge {
  pinned: boolean;
  createdAt: number;
}

export interface LinkKey {
  source: number;
  target: number;
  relation: string;
}

interface LinkRowLite {
  source: number;
  target: number;
  relation: string;
  level: number;
}

export class LinkRepo {
  constructor(
    private readonly db: Db,
    readonly agent: number,
  ) {}

  /** Idempotent bulk insert (a link is unique by source, target and relation). */
  insertStatements(planned: readonly PlannedLink[], now: number): Statement[] {
    return chunk(planned).map((rows) =>
      statement(sql`
        INSERT INTO links (agent, source, target, relation, level, created_at)
        SELECT ${this.agent}, json_extract(value, '$.source'), json_extract(value, '$.target'),
               json_extract(value, '$.relation'), json_extract(value, '$.level'), ${now}
        FROM json_each(${JSON.stringify(rows)}) WHERE true
        ON CONFLICT DO NOTHING`),
    );
  }

  /** Pins every link incident to `nodeIds` (they entered focus): strength 1, exempt from decay. */
  pinStatement(nodeIds: readonly number[]): Statement {
    return statement(sql`
      UPDATE links SET level = ${PINNED_LEVEL}
      WHERE level < ${PINNED_LEVEL} AND id IN (${this.incidentIds(nodeIds, [])})`);
  }

  /**
   * Links incident to `nodeIds` (out of focus now) return to strength 1 at `clock` and decay from
   * there, except those whose other end is still in focus (`stillFocused`).
   */
  unpinStatement(nodeIds: readonly number[], stillFocused: readonly number[], clock: number): Statement {
    return statement(sql`UPDATE links SET level = ${clock} WHERE id IN (${this.incidentIds(nodeIds, stillFocused)})`);
  }

  /**
   * Ids of the links with an end in `nodeIds` whose other end is not in `excluded`: one lookup
   * through the source index and one through the target index. (A single `source IN … OR target
   * IN …` condition makes SQLite scan all of the agent's links.)
   */
  private incidentIds(nodeIds: readonly number[], excluded: readonly number[]) {
    const ids = jsonList(nodeIds);
    const skip = jsonList(excluded);
    return sql`
      SELECT id FROM links WHERE agent = ${this.agent} AND source IN ${ids} AND target NOT IN ${skip}
      UNION
      SELECT id FROM links WHERE agent = ${this.agent} AND target IN ${ids} AND source NOT IN ${skip}`;
  }

  /** Every link with an end in `frontier`, optionally only of the given relations (BFS layer). */
  async incident(frontier: readonly number[], relations: readonly string[], clock: number): Promise<Edge[]> {
    if (frontier.length === 0) return [];
    const ids = jsonList(frontier);
    const relationFilter = relations.length > 0 ? sql`AND relation IN ${jsonList(relations)}` : sql``;
    const rows = await this.db.all<LinkRowLite>(sql`
      SELECT source, target, relation, level FROM links WHERE agent = ${this.agent} AND source IN ${ids} ${relationFilter}
      UNION ALL
      SELECT source, target, relation, level FROM links WHERE agent = ${this.agent} AND target IN ${ids} ${relationFilter}`);
    return rows.map((r) => ({ source: r.source, target: r.target, relation: r.relation, strength: strengthAt(r.level, clock) }));
  }

  /** Outgoing strengths per node (dangling links included): the inputs of importance. */
  async outgoingStrengths(nodeIds: readonly number[], clock: number): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    for (const id of nodeIds) out.set(id, []);
    for (const part of chunk(nodeIds, 2000)) {
      const rows = await this.db
        .select({ source: links.source, level: links.level })
        .from(links)
        .where(and(eq(links.agent, this.agent), sql`${links.source} IN ${jsonList(part)}`));
      for (const r of rows) out.get(r.source)?.push(strengthAt(r.level, clock));
    }
    return out;
  }

  /** A node's outgoing and incoming links, with strengths and whether the far end still exists. */
  async ofNode(nodeId: number, clock: number): Promise<{ outgoing: LinkView[]; incoming: LinkView[] }> {
    const rows = await this.db.all<{ source: number; target: number; relation: string; level: number; createdAt: number }>(sql`
      SELECT source, target, relation, level, created_at AS createdAt FROM links WHERE agent = ${this.agent} AND source = ${nodeId}
      UNION ALL
      SELECT source, target, relation, level, created_at AS createdAt FROM links WHERE agent = ${this.agent} AND target = ${nodeId} AND source <> ${nodeId}`);
    const view = (r: (typeof rows)[number]): LinkView => ({
      source: r.source,
      target: r.target,
      relation: r.relation,
      strength: strengthAt(r.level, clock),
      pinned: r.level >= PINNED_LEVEL,
      createdAt: r.createdAt,
    });
    return {
      outgoing: rows.filter((r) => r.source === nodeId).map(view),
      incoming: rows.filter((r) => r.target === nodeId && r.source !== nodeId).map(view),
    };
  }

  /**
   * The decay step's break (DESIGN §6 step 1): removes every link whose strength at the new clock
   * is below the threshold, i.e. whose level is below `belowLevel`. Pinned links never qualify.
   * One statement, however large the network; returns the number of links removed.
   */
  async breakWeak(belowLevel: number): Promise<number> {
    const result = await this.db.run(sql`DELETE FROM links WHERE agent = ${this.agent} AND level < ${belowLevel}`);
    return result.meta.changes ?? 0;
  }

  /** Deletes the outgoing links of deleted nodes; links into them stay, dangling (seed 001 §5.3). */
  deleteOutgoingStatement(nodeIds: readonly number[]): Statement {
    return statement(this.db.delete(links).where(and(eq(links.agent, this.agent), sql`${links.source} IN ${jsonList(nodeIds)}`)));
  }

  /**
   * Links after `after` in (source, target, relation) order: a keyset page over the agent's own
   * unique index, for loading the graph into memory.
   */
  async page(after: LinkKey | null, limit: number): Promise<GraphLink[]> {
    const rows = await this.db
      .select({ source: links.source, target: links.target, relation: links.relation, level: links.level, createdAt: links.createdAt })
      .from(links)
      .where(
        and(
          eq(links.agent, this.agent),
          after
            ? sql`(${links.source}, ${links.target}, ${links.relation}) > (${after.source}, ${after.target}, ${after.relation})`
            : undefined,
        ),
      )
      .orderBy(asc(links.source), asc(links.target), asc(links.relation))
      .limit(limit);
    return rows;
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(links).where(eq(links.agent, this.agent));
    return row?.n ?? 0;
  }

  /** Links whose target node no longer exists: the traces of forgotten memories. */
  async danglingCount(): Promise<number> {
    const [row] = await this.db.all<{ n: number }>(sql`
      SELECT count(*) AS n FROM links l
      WHERE l.agent = ${this.agent}
        AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.agent = l.agent AND n.id = l.target)`);
    return row?.n ?? 0;
  }

  deleteAllStatement(): Statement {
    return statement(this.db.delete(links).where(eq(links.agent, this.agent)));
  }
}
