/**
 * Link rows of one agent, stored as blocks (src/storage/link-blocks.ts). A link stores the level
 * written by a task and that task's epoch; what a link's level is now also depends on the focus and
 * on when its ends last left the focus (src/memory/strength.ts, effectiveLevel). Every read here
 * computes that effective level in SQL, with the current focus as a parameter, so callers see links
 * as they stand; the pinned ones are flagged. Focus changes therefore never rewrite links.
 */
import { sql, type SQL } from "drizzle-orm";
import type { LinkKey, LinkState, NewLink } from "../vocabulary/records";
import { statement, type Statement } from "./batch";
import type { Db } from "./db";
import { chunk, jsonList } from "./json-list";
import { entryPatches, pageOf, pagesOf, removalPatches, statementGroups, upsertPatches, type BlockPatch } from "./link-blocks";

/** Which blocks a read opens, and which of their links it keeps. */
interface BlockRead {
  blocks: SQL;
  where: SQL;
  byTarget?: boolean;
}

interface LinkStateRow {
  source: number;
  target: number;
  relation: string;
  level: number;
  pinned: number;
  createdAt: number;
}

/** A block's entries as link rows (over `link_blocks b`): `js` is a source's object, `jt` one entry. */
const SOURCE = sql.raw("CAST(js.key AS INTEGER)");
const TARGET = sql.raw("CAST(substr(jt.key, 1, instr(jt.key, '|') - 1) AS INTEGER)");
const ENTRIES = sql.raw("json_each(b.body) js, json_each(js.value) jt");

/** A level written from SQL into JSON with every digit (json_object keeps 15 significant ones in some builds). */
const exactReal = (value: SQL) => sql`json(printf('%!.17g', ${value}))`;

/** Source ids per statement of a load (a page of 256 ids holds ~3,500 links at 10k nodes). */
const LOAD_SOURCES = 2_048;

/** Blocks as one JSON parameter: `[spage, tpage, patch]`, and a second patch when given. */
function blocksParam(groups: readonly (BlockPatch & { levels?: unknown })[]): string {
  return JSON.stringify(groups.map((b) => (b.levels === undefined ? [b.spage, b.tpage, b.body] : [b.spage, b.tpage, b.body, b.levels])));
}

export class LinkRepo {
  constructor(
    private readonly db: Db,
    readonly agentUid: number,
  ) {}

  /** Idempotent bulk insert (a link is unique by source, target and relation; an existing one is kept). */
  insertStatements(created: readonly NewLink[]): Statement[] {
    // json_patch(new, stored): what is stored wins, what is missing is added.
    return statementGroups(entryPatches(created)).map((group) =>
      statement(sql`
        INSERT INTO link_blocks (agent, spage, tpage, body)
        SELECT ${this.agentUid}, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json(json_extract(value, '$[2]'))
        FROM json_each(${blocksParam(group)}) WHERE true
        ON CONFLICT (agent, spage, tpage) DO UPDATE SET body = json_patch(excluded.body, link_blocks.body)`),
    );
  }

  /** Creates links or sets the level (and epoch) of existing ones: absolute values, idempotent. */
  upsertStatements(links: readonly NewLink[]): Statement[] {
    const groups = statementGroups(upsertPatches(links));
    // The stored body with the new levels and epochs, merged over the new entries: an existing link
    // keeps its creation time, a new one takes its whole entry.
    return groups.map((group) => {
      const param = blocksParam(group);
      return statement(sql`
        INSERT INTO link_blocks (agent, spage, tpage, body)
        SELECT ${this.agentUid}, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json(json_extract(value, '$[2]'))
        FROM json_each(${param}) WHERE true
        ON CONFLICT (agent, spage, tpage) DO UPDATE SET body = json_patch(excluded.body, json_patch(link_blocks.body,
          (SELECT json_extract(p.value, '$[3]') FROM json_each(${param}) p
           WHERE json_extract(p.value, '$[0]') = excluded.spage AND json_extract(p.value, '$[1]') = excluded.tpage)))`);
    });
  }

  /** Deletes links by key (broken by decay, or removed on purpose). */
  deleteKeysStatements(keys: readonly LinkKey[]): Statement[] {
    return statementGroups(removalPatches(keys)).map((group) => {
      const param = blocksParam(group);
      // A source left without links is dropped from the body (every later read would step over it).
      return statement(sql`
        UPDATE link_blocks SET body = (
          SELECT json_group_object(js.key, json(js.value)) FROM json_each(json_patch(link_blocks.body,
            (SELECT json_extract(p.value, '$[2]') FROM json_each(${param}) p
             WHERE json_extract(p.value, '$[0]') = link_blocks.spage AND json_extract(p.value, '$[1]') = link_blocks.tpage))) js
          WHERE js.value <> '{}')
        WHERE agent = ${this.agentUid} AND (spage, tpage) IN (
          SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${param}))`);
    });
  }

  /**
   * Before `nodeIds` are deleted: a focus release they carry (on their row, read lazily by
   * `states`) moves onto the links into them, which stay as dangling traces and would otherwise
   * fall back to their level from before the release once the row is gone. Same effective level
   * as `states` computes (the later release of either end after the link's epoch), written with
   * the epoch of the release it took. Idempotent: once the nodes are gone it matches nothing.
   */
  settleReleasesStatement(nodeIds: readonly number[]): Statement {
    const epoch = sql.raw("json_extract(jt.value, '$.e')");
    const released = (end: SQL, column: "released_clock" | "released_epoch") =>
      sql`(SELECT n.${sql.raw(column)} FROM nodes n WHERE n.agent = ${this.agentUid} AND n.id = ${end} AND coalesce(n.released_epoch, -1) > ${epoch})`;
    const settles = sql`${TARGET} IN ${jsonList(nodeIds)} AND ${released(TARGET, "released_epoch")} IS NOT NULL`;
    const entry = sql`CASE WHEN ${settles} THEN json_object(
        'l', ${exactReal(sql`max(coalesce(${released(TARGET, "released_clock")}, -1e308), coalesce(${released(SOURCE, "released_clock")}, -1e308))`)},
        'e', max(coalesce(${released(TARGET, "released_epoch")}, -1), coalesce(${released(SOURCE, "released_epoch")}, -1)),
        'c', json_extract(jt.value, '$.c'))
      ELSE jt.value END`;
    return this.rewriteStatement(sql`tpage IN ${jsonList(pagesOf(nodeIds))}`, settles, entry);
  }

  /** Deletes the outgoing links of deleted nodes; links into them stay, dangling (docs/design.md, "The model"). */
  deleteOutgoingStatement(nodeIds: readonly number[]): Statement {
    const sources = JSON.stringify(nodeIds.map(String));
    return statement(sql`
      UPDATE link_blocks SET body = json_patch(body, (SELECT json_group_object(value, NULL) FROM json_each(${sources})))
      WHERE agent = ${this.agentUid} AND spage IN ${jsonList(pagesOf(nodeIds))}
        AND EXISTS (SELECT 1 FROM json_each(link_blocks.body) js WHERE js.key IN (SELECT value FROM json_each(${sources})))`);
  }

  deleteAllStatement(): Statement {
    return statement(sql`DELETE FROM link_blocks WHERE agent = ${this.agentUid}`);
  }

  /** Up to `limit` of the agent's links, by key (agent deletion takes them chunk by chunk). */
  async someKeys(limit: number): Promise<LinkKey[]> {
    return this.db.all<LinkKey>(sql`
      SELECT ${SOURCE} AS source, ${TARGET} AS target, substr(jt.key, instr(jt.key, '|') + 1) AS relation
      FROM link_blocks b, ${ENTRIES} WHERE b.agent = ${this.agentUid} LIMIT ${limit}`);
  }

  /** Every link with an end in `frontier`, optionally only of the given relations (a BFS layer). */
  async incident(frontier: readonly number[], relations: readonly string[], focus: readonly number[]): Promise<LinkState[]> {
    if (frontier.length === 0) return [];
    const ids = jsonList(frontier);
    const pages = jsonList(pagesOf(frontier));
    const relationFilter = relations.length > 0 ? sql`AND l.relation IN ${jsonList(relations)}` : sql``;
    // Two block lookups (by source page, by target page), as the links' two directions.
    return this.states(focus, [
      { blocks: sql`b.spage IN ${pages}`, where: sql`l.source IN ${ids} ${relationFilter}` },
      { blocks: sql`b.tpage IN ${pages}`, where: sql`l.target IN ${ids} AND l.source NOT IN ${ids} ${relationFilter}`, byTarget: true },
    ]);
  }

  /** Outgoing links per node, dangling ones included (the inputs of importance). */
  async outgoing(nodeIds: readonly number[], focus: readonly number[]): Promise<LinkState[]> {
    const out: LinkState[] = [];
    for (const part of chunk(nodeIds, 2000)) {
      const links = await this.states(focus, [
        { blocks: sql`b.spage IN ${jsonList(pagesOf(part))}`, where: sql`l.source IN ${jsonList(part)}` },
      ]);
      // Not push(...links): 2,000 sources with hubs among them hold more links than a call has room for arguments.
      for (const link of links) out.push(link);
    }
    return out;
  }

  /** A node's outgoing and incoming links. */
  async ofNode(nodeId: number, focus: readonly number[]): Promise<LinkState[]> {
    const page = pageOf(nodeId);
    return this.states(focus, [
      { blocks: sql`b.spage = ${page}`, where: sql`l.source = ${nodeId}` },
      { blocks: sql`b.tpage = ${page}`, where: sql`l.target = ${nodeId} AND l.source <> ${nodeId}`, byTarget: true },
    ]);
  }

  /**
   * The links from sources `from` … `from + LOAD_SOURCES - 1` in (source, target, relation) order,
   * and where the next page starts (none after the last block): a page for loading the graph.
   */
  async page(from: number, focus: readonly number[]): Promise<{ links: LinkState[]; next: number | null }> {
    const [first, last] = [pageOf(from), pageOf(from + LOAD_SOURCES - 1)];
    const links = await this.states(
      focus,
      [{ blocks: sql`b.spage BETWEEN ${first} AND ${last}`, where: sql`true` }],
      sql`ORDER BY source, target, relation`,
    );
    const [more] = await this.db.all<{ spage: number }>(
      sql`SELECT spage FROM link_blocks WHERE agent = ${this.agentUid} AND spage > ${last} ORDER BY spage LIMIT 1`,
    );
    return { links, next: more ? from + LOAD_SOURCES : null };
  }

  /**
   * Keys of the links that break at a clock whose break level is `belowLevel` (docs/design.md, "Compression" step 1):
   * not pinned, effective level below it. A stored level is never above the effective one, so the
   * stored level narrows the candidates.
   */
  async breaking(belowLevel: number, focus: readonly number[]): Promise<LinkKey[]> {
    const candidates = await this.states(focus, [{ blocks: sql`true`, where: sql`l.level < ${belowLevel}` }]);
    return candidates
      .filter((l) => !l.pinned && l.level < belowLevel)
      .map((l) => ({ source: l.source, target: l.target, relation: l.relation }));
  }

  /**
   * Upgrade of rows written before focus releases existed, when pinned links were stored at a
   * sentinel level: they become strength 1 at `level` (the clock of the upgrade). Idempotent.
   */
  relevelStatement(atLeast: number, level: number): Statement {
    const raised = sql`json_extract(jt.value, '$.l') >= ${atLeast}`;
    return this.rewriteStatement(
      sql`true`,
      raised,
      sql`CASE WHEN ${raised} THEN json_object('l', ${exactReal(sql`${level}`)}, 'e', 0, 'c', json_extract(jt.value, '$.c')) ELSE jt.value END`,
    );
  }

  async count(): Promise<number> {
    const [row] = await this.db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM link_blocks b, ${ENTRIES} WHERE b.agent = ${this.agentUid}`,
    );
    return row?.n ?? 0;
  }

  /** The agent's nodes and links, counted in one statement (whether its graph may be loaded). */
  async networkSize(): Promise<{ nodes: number; links: number }> {
    const [row] = await this.db.all<{ nodes: number; links: number }>(sql`
      SELECT (SELECT count(*) FROM nodes WHERE agent = ${this.agentUid}) AS nodes,
             (SELECT count(*) FROM link_blocks b, ${ENTRIES} WHERE b.agent = ${this.agentUid}) AS links`);
    return { nodes: row?.nodes ?? 0, links: row?.links ?? 0 };
  }

  /** Links whose target node no longer exists: the traces of forgotten memories. */
  async danglingCount(): Promise<number> {
    const [row] = await this.db.all<{ n: number }>(sql`
      SELECT count(*) AS n FROM link_blocks b, ${ENTRIES}
      WHERE b.agent = ${this.agentUid} AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.agent = b.agent AND n.id = ${TARGET})`);
    return row?.n ?? 0;
  }

  /**
   * Rewrites, in the blocks matching `blocks` that hold an entry matching `matches`, every entry
   * as `entry` (over `js`, `jt`; an entry it leaves alone is `jt.value`). One statement, in SQL.
   */
  private rewriteStatement(blocks: SQL, matches: SQL, entry: SQL): Statement {
    return statement(sql`
      UPDATE link_blocks SET body = (
        SELECT json_group_object(js.key, json((SELECT json_group_object(jt.key, json(${entry})) FROM json_each(js.value) jt)))
        FROM json_each(link_blocks.body) js)
      WHERE agent = ${this.agentUid} AND ${blocks}
        AND EXISTS (SELECT 1 FROM json_each(link_blocks.body) js, json_each(js.value) jt WHERE ${matches})`);
  }

  /**
   * Links matching any of the `parts` (each: the blocks to open, over alias `b`, and a condition on
   * the links, over alias `l`; one SELECT each, joined by UNION ALL, so each can use its own index)
   * with their effective level at the given focus. Blocks found by target page name their index:
   * without statistics SQLite walks all of the agent's blocks by key instead.
   */
  private async states(focus: readonly number[], parts: readonly BlockRead[], tail: SQL = sql``): Promise<LinkState[]> {
    const f = jsonList(focus);
    // An end released after the link's epoch restarts it at its release clock (the later of two).
    const after = (alias: "s" | "t") => sql.raw(`coalesce(${alias}.released_epoch, -1) > l.epoch`);
    const select = ({ blocks, where, byTarget }: BlockRead) => sql`
      SELECT l.source AS source, l.target AS target, l.relation AS relation, l.created_at AS createdAt,
             (l.source IN ${f} OR l.target IN ${f}) AS pinned,
             CASE WHEN ${after("s")} OR ${after("t")}
                  THEN max(CASE WHEN ${after("s")} THEN s.released_clock ELSE -1e308 END,
                           CASE WHEN ${after("t")} THEN t.released_clock ELSE -1e308 END)
                  ELSE l.level END AS level
      FROM (SELECT ${SOURCE} AS source, ${TARGET} AS target, substr(jt.key, instr(jt.key, '|') + 1) AS relation,
                   json_extract(jt.value, '$.l') AS level, json_extract(jt.value, '$.e') AS epoch,
                   json_extract(jt.value, '$.c') AS created_at
            FROM link_blocks b ${byTarget ? sql`INDEXED BY link_blocks_target` : sql``}, ${ENTRIES}
            WHERE b.agent = ${this.agentUid} AND ${blocks}) l
      LEFT JOIN nodes s ON s.agent = ${this.agentUid} AND s.id = l.source
      LEFT JOIN nodes t ON t.agent = ${this.agentUid} AND t.id = l.target
      WHERE ${where}`;
    const rows = await this.db.all<LinkStateRow>(sql`${sql.join(parts.map(select), sql` UNION ALL `)} ${tail}`);
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
