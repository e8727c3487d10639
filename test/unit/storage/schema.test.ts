/**
 * The node indexes are partial (src/storage/schema.ts: a segment has no name, is not pinned and is not
 * superseded, so it writes no entry in any of them; a memory outside any session writes none in nodes_session). Every query of src/storage that filters nodes by
 * `name` or `superseded_by` (NodeRepo.findEntities, versions, olderVersions, listMemories;
 * FtsRepo.candidates, substrings, statistics) is captured as the repositories send it and planned
 * by SQLite over the migrated schema: the lookups by value still use the partial index, and the
 * `IS NULL` filters walk the agent's primary-key range, never the whole table.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { createDb } from "../../../src/storage/db";
import { FtsRepo } from "../../../src/storage/fts-repo";
import { LinkRepo } from "../../../src/storage/link-repo";
import { NodeRepo } from "../../../src/storage/node-repo";

const MIGRATIONS = join(import.meta.dirname, "../../../migrations");

function migrated(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  for (const file of readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    for (const step of readFileSync(join(MIGRATIONS, file), "utf8").split("--> statement-breakpoint")) if (step.trim()) db.exec(step);
  return db;
}

interface Captured {
  query: string;
  values: SQLInputValue[];
}

/** A D1 binding that records what it is sent and answers nothing: the SQL the repositories build. */
function recordingD1(into: Captured[]): D1Database {
  const prepared = (query: string, values: SQLInputValue[] = []) => ({
    bind: (...bound: unknown[]) => prepared(query, bound as SQLInputValue[]),
    all: async () => (into.push({ query, values }), { results: [], success: true, meta: {} }),
    raw: async () => (into.push({ query, values }), []),
    first: async () => (into.push({ query, values }), null),
    run: async () => (into.push({ query, values }), { results: [], success: true, meta: {} }),
  });
  return { prepare: (query: string) => prepared(query) } as unknown as D1Database;
}

async function plansOf(run: (nodes: NodeRepo, fts: FtsRepo, links: LinkRepo) => Promise<unknown>): Promise<string[][]> {
  const captured: Captured[] = [];
  const db = createDb(recordingD1(captured));
  await run(new NodeRepo(db, 7), new FtsRepo(db, 7), new LinkRepo(db, 7));
  const sqlite = migrated();
  expect(captured.length).toBeGreaterThan(0);
  return captured.map(({ query, values }) =>
    sqlite
      .prepare(`EXPLAIN QUERY PLAN ${query}`)
      .all(...values)
      .map((r) => String(r.detail)),
  );
}

const NOW = 1_800_000_000_000;
const filters = { kinds: ["segment", "memory"] as const, filter: {}, now: NOW };

describe("the partial node indexes serve every query that filters nodes by name or superseded_by", () => {
  it("an entity is found by name through nodes_entity_name", async () => {
    const [plan] = await plansOf((nodes) => nodes.findEntities(["zoe", "harbor bank"]));
    expect(plan).toContainEqual(expect.stringMatching(/USING INDEX nodes_entity_name \(agent=\? AND name=\?\)/));
  });

  it("the chain of versions and the older versions are walked through nodes_superseded, one lookup a step", async () => {
    const plans = await plansOf(async (nodes) => {
      await nodes.versions(5, 0, 50, NOW);
      await nodes.olderVersions([5, 6]);
    });
    for (const plan of plans)
      expect(plan).toContainEqual(expect.stringMatching(/USING INDEX nodes_superseded \(agent=\? AND superseded_by=\?\)/));
  });

  it("listings, full-text candidates and statistics keep to the agent's rows: no scan of the whole table", async () => {
    const plans = await plansOf(async (nodes, fts) => {
      await nodes.listMemories({ kinds: ["segment"], limit: 50, includeSuperseded: false, filter: {}, now: NOW });
      await nodes.listMemories({ kinds: ["segment"], before: 90, limit: 50, includeSuperseded: true, filter: {}, now: NOW });
      await nodes.listMemories({ kinds: ["segment"], limit: 50, includeSuperseded: false, filter: { session_ids: ["s1"] }, now: NOW });
      await fts.candidates('"zoe"', filters, 100);
      await fts.substrings(["储蓄"], filters, 20);
      await fts.statistics(["zoe"]);
    });
    expect(plans).toHaveLength(7);
    for (const plan of plans) {
      expect(plan.join("\n")).not.toMatch(/SCAN (nodes|n)\b(?! USING)/);
      expect(plan.filter((d) => /\b(nodes|n) USING/.test(d)).every((d) => /\(agent=\?/.test(d))).toBe(true);
    }
  });

  it("a session's memories and its count go through nodes_session (partial: where session_id IS NOT NULL)", async () => {
    const plans = await plansOf(async (nodes) => {
      await nodes.ofSession("s1", 0, 500);
      await nodes.sessionCounts(["s1", "s2"], NOW);
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) expect(plan).toContainEqual(expect.stringMatching(/USING INDEX nodes_session \(agent=\? AND session_id=\?/));
  });

  it("the pinned memories are found through nodes_pinned (partial: where pinned = 1)", async () => {
    const plans = await plansOf(async (nodes) => {
      await nodes.find({ pinned: true, supersededBy: null }, 50);
      await nodes.find({ pinned: true }, 50, { filter: {}, now: NOW });
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) expect(plan).toContainEqual(expect.stringMatching(/USING (COVERING )?INDEX nodes_pinned \(agent=\?/));
  });

  it("a link read by its ends opens only the blocks of their pages: by source through the key, by target through link_blocks_target", async () => {
    const plans = await plansOf(async (_nodes, _fts, links) => {
      await links.incident([3, 700], ["上文"], [1]);
      await links.ofNode(300, []);
      await links.outgoing([5, 6], []);
    });
    expect(plans).toHaveLength(3);
    const text = plans.map((p) => p.join("\n")).join("\n");
    expect(text).toMatch(/SEARCH b USING PRIMARY KEY \(agent=\? AND spage=\?\)/);
    expect(text).toMatch(/SEARCH b USING (COVERING )?INDEX link_blocks_target \(agent=\? AND tpage=\?\)/);
    expect(text).not.toMatch(/SCAN b\b/);
  });
});
