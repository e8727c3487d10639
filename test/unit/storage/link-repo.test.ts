/**
 * Links stored as blocks (src/storage/link-blocks.ts, src/storage/link-repo.ts), run in SQLite over
 * the migrated schema: random writes of every kind (insert, upsert, delete by key, delete a
 * source's links) applied through the repository's statements and to a plain map of links; after
 * each step the view `links`, the loading pages and every read of the repository equal the map.
 * And migration 0012 turns rows of the old table into the same links.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { createDb } from "../../../src/storage/db";
import { LinkRepo } from "../../../src/storage/link-repo";
import type { LinkKey, LinkRecord, NewLink } from "../../../src/vocabulary/records";
import { seededRandom } from "../../../src/memory/capacity";

const MIGRATIONS = join(import.meta.dirname, "../../../migrations");
const AGENT = 7;

function migrated(upTo = "9999"): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  for (const file of readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".sql") && f < upTo)
    .sort())
    for (const step of readFileSync(join(MIGRATIONS, file), "utf8").split("--> statement-breakpoint")) if (step.trim()) db.exec(step);
  return db;
}

/** A D1 binding over node's SQLite: enough of it for drizzle's raw queries and for batches. */
function d1Over(sqlite: DatabaseSync): D1Database {
  const prepared = (query: string, values: SQLInputValue[] = []) => ({
    query,
    values,
    bind: (...bound: unknown[]) => prepared(query, bound as SQLInputValue[]),
    all: async () => ({ results: sqlite.prepare(query).all(...values), success: true, meta: {} }),
    raw: async () => {
      const statement = sqlite.prepare(query);
      statement.setReturnArrays(true);
      return statement.all(...values);
    },
    first: async () => sqlite.prepare(query).get(...values) ?? null,
    run: async () => (sqlite.prepare(query).run(...values), { results: [], success: true, meta: {} }),
  });
  return {
    prepare: (query: string) => prepared(query),
    batch: async (list: { query: string; values: SQLInputValue[] }[]) => {
      sqlite.exec("BEGIN");
      for (const s of list) sqlite.prepare(s.query).run(...s.values);
      sqlite.exec("COMMIT");
      return [];
    },
  } as unknown as D1Database;
}

/** A migrated database, its D1 binding and the agent's repository. */
function store(): { sqlite: DatabaseSync; d1: D1Database; repo: LinkRepo } {
  const sqlite = migrated();
  const d1 = d1Over(sqlite);
  return { sqlite, d1, repo: new LinkRepo(createDb(d1), AGENT) };
}

const keyOf = (l: LinkKey) => `${l.source} ${l.target} ${l.relation}`;
const byKey = (a: LinkKey, b: LinkKey) =>
  a.source - b.source || a.target - b.target || (a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : 0);
const RELATIONS = ["上文", "下文", "相关", "a|b", 'quote "x"', "属于"];

interface Model {
  links: Map<string, NewLink>;
}

function randomLink(random: () => number, clock: number): NewLink {
  // Ids across several pages of 256, near their edges too.
  const id = () => Math.floor(random() * 1_500) + (random() < 0.1 ? 65_000 : 0);
  return {
    source: id(),
    target: id(),
    relation: RELATIONS[Math.floor(random() * RELATIONS.length)] ?? "相关",
    level: (random() - 0.5) * 1e3 * random(),
    epoch: Math.floor(random() * 1_000),
    createdAt: clock,
  };
}

async function apply(d1: D1Database, statements: { sql: string; params: unknown[] }[]): Promise<void> {
  await d1.batch(statements.map((s) => d1.prepare(s.sql).bind(...s.params)));
}

function viewRows(sqlite: DatabaseSync): NewLink[] {
  return (
    sqlite
      .prepare(
        "SELECT source, target, relation, level, epoch, created_at AS createdAt FROM links WHERE agent = ? ORDER BY source, target, relation",
      )
      .all(AGENT) as unknown as NewLink[]
  ).map((r) => ({ ...r }));
}

describe("links stored as blocks", () => {
  it("every kind of write, in random order, leaves exactly the links a plain map holds; reads agree", async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const random = seededRandom(seed);
      const sqlite = migrated();
      const d1 = d1Over(sqlite);
      const repo = new LinkRepo(createDb(d1), AGENT);
      const other = new LinkRepo(createDb(d1), AGENT + 1);
      const model: Model = { links: new Map() };
      await apply(d1, other.insertStatements([{ source: 1, target: 2, relation: "上文", level: 0, epoch: 0, createdAt: 1 }]));
      for (let step = 0; step < 30; step++) {
        const roll = random();
        const fresh = Array.from({ length: 1 + Math.floor(random() * 300) }, () => randomLink(random, step));
        const existing = [...model.links.values()];
        const pick = () => existing[Math.floor(random() * existing.length)];
        if (roll < 0.35) {
          await apply(d1, repo.insertStatements(fresh));
          for (const l of fresh) if (!model.links.has(keyOf(l))) model.links.set(keyOf(l), l);
        } else if (roll < 0.65) {
          // Some new, some existing with a new level and epoch (and another creation time, which the stored one keeps).
          const some = [...fresh.slice(0, 50), ...Array.from({ length: 60 }, pick).filter((l) => l !== undefined)].map((l) => ({
            ...l,
            level: l.level + 1,
            epoch: l.epoch + 1,
            createdAt: 99_999,
          }));
          await apply(d1, repo.upsertStatements(some));
          for (const l of some) {
            const held = model.links.get(keyOf(l));
            model.links.set(keyOf(l), held ? { ...l, createdAt: held.createdAt } : l);
          }
        } else if (roll < 0.85) {
          const keys = [...Array.from({ length: 80 }, pick).filter((l) => l !== undefined), ...fresh.slice(0, 5)];
          await apply(d1, repo.deleteKeysStatements(keys));
          for (const k of keys) model.links.delete(keyOf(k));
        } else {
          const ids = [...new Set(Array.from({ length: 20 }, pick).map((l) => l?.source ?? 3))];
          await apply(d1, [repo.deleteOutgoingStatement(ids)]);
          for (const [k, l] of model.links) if (ids.includes(l.source)) model.links.delete(k);
        }
        const expected = [...model.links.values()].sort(byKey);
        expect(viewRows(sqlite), `seed ${seed} step ${step}`).toEqual(expected);
        // No source is left in a body without links (reads would step over it).
        expect(sqlite.prepare("SELECT count(*) AS n FROM link_blocks b, json_each(b.body) js WHERE js.value = '{}'").get()).toEqual({
          n: 0,
        });
      }
      const expected = [...model.links.values()].sort(byKey);
      const state = (l: LinkRecord) => ({
        source: l.source,
        target: l.target,
        relation: l.relation,
        level: l.level,
        createdAt: l.createdAt,
      });
      // Loading pages: the same links in key order, whatever page they fall on.
      const loaded = [];
      for (let from: number | null = 0; from !== null;) {
        const page = await repo.page(from, []);
        loaded.push(...page.links);
        from = page.next;
      }
      expect(loaded).toEqual(expected.map((l) => ({ ...state(l), pinned: false })));
      expect(await repo.count()).toBe(expected.length);
      expect((await repo.networkSize()).links).toBe(expected.length);
      // Reads by end: a frontier's links both ways, a node's links, outgoing lists, the focus pinning.
      const frontier = [...new Set(expected.slice(0, 40).flatMap((l) => [l.source, l.target]))];
      const incident = await repo.incident(frontier, [], [frontier[0] ?? 0]);
      const inFrontier = expected.filter((l) => frontier.includes(l.source) || frontier.includes(l.target));
      expect(incident.map(state).sort(byKey)).toEqual(inFrontier.map(state));
      expect(incident.filter((l) => l.pinned).length).toBe(
        inFrontier.filter((l) => l.source === frontier[0] || l.target === frontier[0]).length,
      );
      const only = await repo.incident(frontier, ["上文"], []);
      expect(only.map(state).sort(byKey)).toEqual(inFrontier.filter((l) => l.relation === "上文").map(state));
      const node = frontier[1] ?? 0;
      expect((await repo.ofNode(node, [])).map(state).sort(byKey)).toEqual(
        expected.filter((l) => l.source === node || l.target === node).map(state),
      );
      expect((await repo.outgoing(frontier, [])).map(state).sort(byKey)).toEqual(
        expected.filter((l) => frontier.includes(l.source)).map(state),
      );
      expect((await repo.breaking(0, [])).sort(byKey)).toEqual(
        expected.filter((l) => l.level < 0).map((l) => ({ source: l.source, target: l.target, relation: l.relation })),
      );
      expect((await repo.someKeys(1e6)).sort(byKey)).toEqual(
        expected.map((l) => ({ source: l.source, target: l.target, relation: l.relation })),
      );
      // The other agent's link is untouched by all of it.
      expect((await other.someKeys(10)).length).toBe(1);
    }
  });

  it("redoing a batch changes nothing (every statement is absolute)", async () => {
    const random = seededRandom(5);
    const { sqlite, d1, repo } = store();
    const links = Array.from({ length: 500 }, () => randomLink(random, 1));
    await apply(d1, repo.insertStatements(links));
    const batch = [
      ...repo.upsertStatements(links.slice(0, 100).map((l) => ({ ...l, level: 5, epoch: 9, createdAt: 7 }))),
      ...repo.deleteKeysStatements(links.slice(100, 200)),
      repo.deleteOutgoingStatement([links[300]?.source ?? 0]),
      ...repo.insertStatements(links.slice(400).map((l) => ({ ...l, level: -1 }))),
    ];
    await apply(d1, batch);
    const once = viewRows(sqlite);
    await apply(d1, batch);
    expect(viewRows(sqlite)).toEqual(once);
    expect(once.length).toBeGreaterThan(0);
  });

  it("a link named twice in one write: an insert keeps the first, an upsert the last level with the first creation time (as the graph)", async () => {
    const { sqlite, d1, repo } = store();
    const link = (target: number, level: number, createdAt: number): NewLink => ({
      source: 5,
      target,
      relation: "相关",
      level,
      epoch: 1,
      createdAt,
    });
    await apply(d1, repo.insertStatements([link(6, 1, 10), link(6, 2, 20)]));
    await apply(d1, repo.upsertStatements([link(7, 3, 30), link(7, 4, 40), link(6, 5, 50), link(6, 6, 60)]));
    expect(viewRows(sqlite)).toEqual([
      { ...link(6, 6, 10), epoch: 1 },
      { ...link(7, 4, 30), epoch: 1 },
    ]);
  });

  it("the upgrade's relevel rewrites only the links at or above its level, keeping their creation time, with every digit", async () => {
    const random = seededRandom(11);
    const { sqlite, d1, repo } = store();
    const links = Array.from({ length: 400 }, () => randomLink(random, 3));
    await apply(d1, repo.insertStatements(links));
    const before = viewRows(sqlite);
    const level = -89.82949939684626;
    await apply(d1, [repo.relevelStatement(100, level)]);
    const expected = before.map((l) => (l.level >= 100 ? { ...l, level, epoch: 0 } : l));
    expect(expected.filter((l) => l.level === level).length).toBeGreaterThan(10);
    expect(viewRows(sqlite)).toEqual(expected);
  });

  it("a hub's outgoing links come back whole, however many (more than a call takes as arguments)", async () => {
    const { sqlite, repo } = store();
    const HUB_LINKS = 300_000;
    sqlite.exec(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${HUB_LINKS})
      INSERT INTO link_blocks (agent, spage, tpage, body)
      SELECT ${AGENT}, 0, tpage, json_object('1', json_group_object(target || '|相关', json_object('l', 0, 'e', 0, 'c', 0)))
      FROM (SELECT 1000 + n AS target, (1000 + n) >> 8 AS tpage FROM seq) GROUP BY tpage`);
    const links = await repo.outgoing([1, 2], []);
    expect(links.length).toBe(HUB_LINKS);
    expect(new Set(links.map((l) => l.target)).size).toBe(HUB_LINKS);
  });

  it("migration 0012 turns the old rows into the same links, and the view shows them", () => {
    const random = seededRandom(9);
    const sqlite = migrated("0012");
    const links = new Map<string, NewLink>();
    for (let i = 0; i < 2_000; i++) {
      const l = randomLink(random, i);
      links.set(keyOf(l), l);
    }
    let id = 0;
    const insert = sqlite.prepare(
      "INSERT INTO links (id, agent, source, target, relation, level, epoch, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (const l of links.values()) insert.run(++id, AGENT, l.source, l.target, l.relation, l.level, l.epoch, l.createdAt);
    insert.run(++id, AGENT + 1, 1, 2, "上文", 0.5, 3, 4);
    for (const step of readFileSync(join(MIGRATIONS, "0012_link_blocks.sql"), "utf8").split("--> statement-breakpoint"))
      if (step.trim()) sqlite.exec(step);
    expect(viewRows(sqlite)).toEqual([...links.values()].sort(byKey));
    expect(sqlite.prepare("SELECT count(*) AS n FROM links WHERE agent = ?").get(AGENT + 1)).toEqual({ n: 1 });
  });
});
