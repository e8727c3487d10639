/**
 * Link rows of one agent. A row stores the level written by a task and that task's epoch; what a
 * link's level is now also depends on the focus and on when its ends last left the focus
 * (src/memory/strength.ts, effectiveLevel). Every read here computes that effective level in SQL,
 * with the current focus as a parameter, so callers see links as they stand; the pinned ones are
 * flagged. Focus changes therefore never rewrite link rows.
 */
import { sql, type SQL } from "drizzle-orm";
import type { LinkKey, LinkState, NewLink } from "../vocabulary/records";
import { statement, type Statement } from "./batch";
import type { Db } from "./db";
import { chunk, jsonList } from "./json-list";

interface LinkStateRow {
  source: number;
  target: number;
  relation: string;
  level: number;
  pinned: number;
  createdAt: number;
}

export class LinkRepo {
  constructor(
    private readonly db: Db,
    readonly agentUid: number,
  ) {}

  /** Idempotent bulk insert (a link is unique by source, target and relation; an existing one is kept). */
  insertStatements(created: readonly NewLink[]): Statement[] {
    return chunk(created).map((rows) =>
      statement(sql`
        INSERT INTO links (agent, source, target, relation, level, epoch, created_at)
        SELECT ${this.agentUid}, json_extract(value, '$.source'), json_extract(value, '$.target'),
               json_extract(value, '$.relation'), json_extract(value, '$.level'), json_extract(value, '$.epoch'),
               json_extract(value, '$.createdAt')
        FROM json_each(${JSON.stringify(rows)}) WHERE true
        ON CONFLICT DO NOTHING`),
    );
  }

  /** Creates links or sets the level (and epoch) of existing ones: absolute values, idempotent. */
  upsertStatements(links: readonly NewLink[]): Statement[] {
    return chunk(links).map((rows) =>
      statement(sql`
        INSERT INTO links (agent, source, target, relation, level, epoch, created_at)
        SELECT ${this.agentUid}, json_extract(value, '$.source'), json_extract(value, '$.target'),
               json_extract(value, '$.relation'), json_extract(value, '$.level'), json_extract(value, '$.epoch'),
               json_extract(value, '$.createdAt')
        FROM json_each(${JSON.stringify(rows)}) WHERE true
        ON CONFLICT (agent, source, target, relation) DO UPDATE SET level = excluded.level, epoch = excluded.epoch`),
    );
  }

  /** Deletes links by key (broken by decay, or removed on purpose). */
  deleteKeysStatements(keys: readonly LinkKey[]): Statement[] {
    return chunk(keys).map((rows) =>
      statement(sql`
        DELETE FROM links WHERE agent = ${this.agentUid} AND (source, target, relation) IN (
          SELECT json_extract(value, '$.source'), json_extract(value, '$.target'), json_extract(value, '$.relation')
          FROM json_each(${JSON.stringify(rows.map((k) => ({ source: k.source, target: k.target, relation: k.relation })))}))`),
    );
  }

  /**
   * Before `nodeIds` are deleted: a focus release they carry (on their row, read lazily by
   * `states`) moves onto the links into them, which stay as dangling traces and would otherwise
   * fall back to their level from before the release once the row is gone. Same effective level
   * as `states` computes (the later release of either end after the link's epoch), written with
   * the epoch of the release it took. Idempotent: once the nodes are gone it matches nothing.
   */
  settleReleasesStatement(nodeIds: readonly number[]): Statement {
    const released = (end: "source" | "target", column: "released_clock" | "released_epoch") =>
      sql.raw(
        `(SELECT n.${column} FROM nodes n WHERE n.agent = links.agent AND n.id = links.${end} AND coalesce(n.released_epoch, -1) > links.epoch)`,
      );
    return statement(sql`
      UPDATE links SET
        level = max(coalesce(${released("target", "released_clock")}, -1e308), coalesce(${released("source", "released_clock")}, -1e308)),
        epoch = max(coalesce(${released("target", "released_epoch")}, -1), coalesce(${released("source", "released_epoch")}, -1))
      WHERE agent = ${this.agentUid} AND target IN ${jsonList(nodeIds)} AND ${released("target", "released_epoch")} IS NOT NULL`);
  }

  /** Deletes the outgoing links of deleted nodes; links into them stay, dangling (docs/design.md, "The model"). */
  deleteOutgoingStatement(nodeIds: readonly number[]): Statement {
    return statement(sql`DELETE FROM links WHERE agent = ${this.agentUid} AND source IN ${jsonList(nodeIds)}`);
  }

  deleteAllStatement(): Statement {
    return statement(sql`DELETE FROM links WHERE agent = ${this.agentUid}`);
  }

  /** Up to `limit` of the agent's links, by key (agent deletion takes them chunk by chunk). */
  async someKeys(limit: number): Promise<LinkKey[]> {
    return this.db.all<LinkKey>(sql`SELECT source, target, relation FROM links WHERE agent = ${this.agentUid} LIMIT ${limit}`);
  }

  /** Every link with an end in `frontier`, optionally only of the given relations (a BFS layer). */
  async incident(frontier: readonly number[], relations: readonly string[], focus: readonly number[]): Promise<LinkState[]> {
    if (frontier.length === 0) return [];
    const ids = jsonList(frontier);
    const relationFilter = relations.length > 0 ? sql`AND l.relation IN ${jsonList(relations)}` : sql``;
    // Two index lookups (by source, by target): one `source IN … OR target IN …` condition makes
    // SQLite scan every link of the agent.
    return this.states(focus, [
      sql`l.source IN ${ids} ${relationFilter}`,
      sql`l.target IN ${ids} AND l.source NOT IN ${ids} ${relationFilter}`,
    ]);
  }

  /** Outgoing links per node, dangling ones included (the inputs of importance). */
  async outgoing(nodeIds: readonly number[], focus: readonly number[]): Promise<LinkState[]> {
    const out: LinkState[] = [];
    for (const part of chunk(nodeIds, 2000)) out.push(...(await this.states(focus, [sql`l.source IN ${jsonList(part)}`])));
    return out;
  }

  /** A node's outgoing and incoming links. */
  async ofNode(nodeId: number, focus: readonly number[]): Promise<LinkState[]> {
    return this.states(focus, [sql`l.source = ${nodeId}`, sql`l.target = ${nodeId} AND l.source <> ${nodeId}`]);
  }

  /** Links after `after` in (source, target, relation) order: a keyset page for loading the graph. */
  async page(after: LinkKey | null, limit: number, focus: readonly number[]): Promise<LinkState[]> {
    const from = after ? sql`(l.source, l.target, l.relation) > (${after.source}, ${after.target}, ${after.relation})` : sql`true`;
    return this.states(focus, [from], sql`ORDER BY source, target, relation LIMIT ${limit}`);
  }

  /**
   * Keys of the links that break at a clock whose break level is `belowLevel` (docs/design.md, "Compression" step 1):
   * not pinned, effective level below it. A stored level is never above the effective one, so the
   * level index narrows the candidates.
   */
  async breaking(belowLevel: number, focus: readonly number[]): Promise<LinkKey[]> {
    const candidates = await this.states(focus, [sql`l.level < ${belowLevel}`]);
    return candidates
      .filter((l) => !l.pinned && l.level < belowLevel)
      .map((l) => ({ source: l.source, target: l.target, relation: l.relation }));
  }

  /**
   * Upgrade of rows written before focus releases existed, when pinned links were stored at a
   * sentinel level: they become strength 1 at `level` (the clock of the upgrade). Idempotent.
   */
  relevelStatement(atLeast: number, level: number): Statement {
    return statement(sql`UPDATE links SET level = ${level}, epoch = 0 WHERE agent = ${this.agentUid} AND level >= ${atLeast}`);
  }

  async count(): Promise<number> {
    const [row] = await this.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM links WHERE agent = ${this.agentUid}`);
    return row?.n ?? 0;
  }

  /** The agent's nodes and links, counted in one statement (whether its graph may be loaded). */
  async networkSize(): Promise<{ nodes: number; links: number }> {
    const [row] = await this.db.all<{ nodes: number; links: number }>(sql`
      SELECT (SELECT count(*) FROM nodes WHERE agent = ${this.agentUid}) AS nodes,
             (SELECT count(*) FROM links WHERE agent = ${this.agentUid}) AS links`);
    return { nodes: row?.nodes ?? 0, links: row?.links ?? 0 };
  }

  /** Links whose target node no longer exists: the traces of forgotten memories. */
  async danglingCount(): Promise<number> {
    const [row] = await this.db.all<{ n: number }>(sql`
      SELECT count(*) AS n FROM links l
      WHERE l.agent = ${this.agentUid}
        AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.agent = l.agent AND n.id = l.target)`);
    return row?.n ?? 0;
  }

  /**
   * Links matching any of `wheres` (over alias `l`; one SELECT each, joined by UNION ALL, so each
   * can use its own index) with their effective level at the given focus.
   */
  private async states(focus: readonly number[], wheres: readonly SQL[], tail: SQL = sql``): Promise<LinkState[]> {
    const f = jsonList(focus);
    // An end released after the link's epoch restarts it at its release clock (the later of two).
    const after = (alias: "s" | "t") => sql.raw(`coalesce(${alias}.released_epoch, -1) > l.epoch`);
    const select = (where: SQL) => sql`
      SELECT l.source AS source, l.target AS target, l.relation AS relation, l.created_at AS createdAt,
             (l.source IN ${f} OR l.target IN ${f}) AS pinned,
             CASE WHEN ${after("s")} OR ${after("t")}
                  THEN max(CASE WHEN ${after("s")} THEN s.released_clock ELSE -1e308 END,
                           CASE WHEN ${after("t")} THEN t.released_clock ELSE -1e308 END)
                  ELSE l.level END AS level
      FROM links l
      LEFT JOIN nodes s ON s.agent = l.agent AND s.id = l.source
      LEFT JOIN nodes t ON t.agent = l.agent AND t.id = l.target
      WHERE l.agent = ${this.agentUid} AND ${where}`;
    const rows = await this.db.all<LinkStateRow>(sql`${sql.join(wheres.map(select), sql` UNION ALL `)} ${tail}`);
    return rows.map((r) => ({
      source: r.source,
      target: r.target,
      relation: r.relation,
      level: r.level,
      pinned: r.pinned === 1,
      createdAt: r.createdAt,
    }));
  }
}
