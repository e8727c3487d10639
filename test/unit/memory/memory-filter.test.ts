/**
 * The filter's one predicate (src/memory/memory-filter.ts) against hand-written cases, and its SQL
 * form (src/storage/filter-sql.ts) against the predicate on random memories and random filters,
 * run in SQLite (node:sqlite), so the D1 paths and the in-memory paths cannot disagree.
 */
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holds, passesScope, traceFollows, type FilterableNode } from "../../../src/memory/memory-filter";
import { filterConditions } from "../../../src/storage/filter-sql";
import { MemoryFilterSchema, type MemoryFilter, type Metadata } from "../../../src/vocabulary/memory-filter";

const NOW = 1_800_000_000_000;

function memory(fields: Partial<FilterableNode> = {}): FilterableNode {
  return {
    kind: "segment",
    sessionId: null,
    speaker: null,
    metadata: null,
    expiresAt: null,
    messageTime: null,
    createdAt: NOW - 1000,
    supersededBy: null,
    ...fields,
  };
}

const passes = (node: FilterableNode, filter: MemoryFilter) => passesScope(node, { filter, now: NOW });

describe("the filter predicate", () => {
  it("sessions and speakers: one of the listed; a memory without one matches none", () => {
    expect(passes(memory({ sessionId: "s1" }), { session_ids: ["s1", "s2"] })).toBe(true);
    expect(passes(memory({ sessionId: "s3" }), { session_ids: ["s1", "s2"] })).toBe(false);
    expect(passes(memory(), { session_ids: ["s1"] })).toBe(false);
    expect(passes(memory({ speaker: "Bob" }), { speakers: ["Bob"] })).toBe(true);
    expect(passes(memory({ speaker: "bob" }), { speakers: ["Bob"] })).toBe(false);
    expect(passes(memory(), { speakers: ["Bob"] })).toBe(false);
  });

  it("a bare tag value is equality of type and value", () => {
    const tags: Metadata = { project: "apollo", priority: 2, urgent: true, code: "2" };
    expect(holds(tags, "project", "apollo")).toBe(true);
    expect(holds(tags, "priority", 2)).toBe(true);
    expect(holds(tags, "priority", "2")).toBe(false);
    expect(holds(tags, "code", 2)).toBe(false);
    expect(holds(tags, "urgent", true)).toBe(true);
    expect(holds(tags, "urgent", 1)).toBe(false);
    expect(holds(tags, "missing", "x")).toBe(false);
    expect(holds(null, "project", "apollo")).toBe(false);
  });

  it("operators: eq, in, ne (absent passes), exists, and comparisons on numbers only", () => {
    const tags: Metadata = { priority: 2, tier: "gold" };
    expect(holds(tags, "tier", { in: ["gold", "silver"] })).toBe(true);
    expect(holds(tags, "tier", { in: ["bronze"] })).toBe(false);
    expect(holds(tags, "tier", { ne: "gold" })).toBe(false);
    expect(holds(tags, "tier", { ne: "silver" })).toBe(true);
    expect(holds(tags, "absent", { ne: "silver" })).toBe(true);
    expect(holds(tags, "absent", { exists: false })).toBe(true);
    expect(holds(tags, "tier", { exists: false })).toBe(false);
    expect(holds(tags, "tier", { exists: true, eq: "gold" })).toBe(true);
    expect(holds(tags, "priority", { gte: 2, lt: 3 })).toBe(true);
    expect(holds(tags, "priority", { gt: 2 })).toBe(false);
    expect(holds(tags, "tier", { gt: 0 })).toBe(false);
    expect(holds(tags, "absent", { lte: 100 })).toBe(false);
  });

  it("keys are ANDed, `any` is OR, parts of the filter are ANDed", () => {
    const node = memory({ sessionId: "s1", speaker: "Ann", metadata: { project: "apollo", priority: 3 } });
    expect(passes(node, { metadata: { project: "apollo", priority: { gte: 2 } } })).toBe(true);
    expect(passes(node, { metadata: { project: "apollo", priority: { gte: 4 } } })).toBe(false);
    expect(passes(node, { any: [{ session_ids: ["s2"] }, { speakers: ["Ann"] }] })).toBe(true);
    expect(passes(node, { any: [{ session_ids: ["s2"] }, { speakers: ["Bob"] }] })).toBe(false);
    expect(passes(node, { session_ids: ["s1"], any: [{ speakers: ["Bob"] }] })).toBe(false);
  });

  it("time ranges use the message time, else the write time; expiry and supersession always apply", () => {
    expect(passes(memory({ messageTime: 100 }), { time_range: { from: 50, to: 150 } })).toBe(true);
    expect(passes(memory({ messageTime: 200 }), { time_range: { to: 150 } })).toBe(false);
    expect(passes(memory({ createdAt: 100 }), { time_range: { from: 50 } })).toBe(true);
    expect(passes(memory({ expiresAt: NOW }), {})).toBe(false);
    expect(passes(memory({ expiresAt: NOW + 1 }), {})).toBe(true);
    expect(passes(memory({ supersededBy: 7 }), {})).toBe(false);
    expect(passesScope(memory({ supersededBy: 7 }), { filter: {}, now: NOW, includeSuperseded: true })).toBe(true);
    expect(passesScope(memory({ kind: "episode" }), { filter: {}, now: NOW, kinds: ["segment"] })).toBe(false);
  });

  it("a trace follows the filter by its source; an entity's only when the filter names no attribute", () => {
    const entity = memory({ kind: "entity" });
    expect(traceFollows(entity, {}, false, NOW)).toBe(true);
    expect(traceFollows(entity, { session_ids: ["s1"] }, true, NOW)).toBe(false);
    expect(traceFollows(memory({ sessionId: "s1" }), { session_ids: ["s1"] }, true, NOW)).toBe(true);
    expect(traceFollows(memory({ sessionId: "s2" }), { session_ids: ["s1"] }, true, NOW)).toBe(false);
    expect(traceFollows(memory({ sessionId: "s1", expiresAt: NOW - 1 }), { session_ids: ["s1"] }, true, NOW)).toBe(false);
  });
});

describe("the filter's schema", () => {
  it("refuses nested values, non-finite numbers, unknown operators, too many keys and session ids out of the alphabet", () => {
    const issues = (value: unknown) => MemoryFilterSchema.safeParse(value).error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(issues({ metadata: { a: { b: { c: 1 } } } })).toContain("metadata.a");
    expect(issues({ metadata: { a: Number.NaN } })).toContain("metadata.a");
    expect(issues({ metadata: { a: { like: "x" } } })).toContain("metadata.a");
    expect(issues({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i])) })).toContain("metadata");
    expect(issues({ session_ids: ["bad id!"] })).toContain("session_ids.0");
    expect(issues({ any: [{ any: [] }] })).toContain("any.0");
    expect(MemoryFilterSchema.safeParse({ session_ids: ["s-1.a_b"], metadata: { 项目: "阿波罗", n: { gte: 1, lt: 2.5 } } }).success).toBe(
      true,
    );
  });
});

// --- SQL against the predicate ----------------------------------------------------------------

const SESSIONS = ["s1", "s2", "s3"];
const SPEAKERS = ["Ann", "Bob", "Cy"];
const KEYS = ["project", "priority", "urgent", "k.dot", "键"];
const value = fc.oneof(fc.constantFrom("apollo", "zeus", "2", ""), fc.constantFrom(0, 1, 2, 2.5, -3), fc.boolean());

const tags: fc.Arbitrary<Metadata | null> = fc.option(fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 4 }), { nil: null });

const node: fc.Arbitrary<FilterableNode> = fc.record({
  kind: fc.constantFrom("segment" as const, "memory" as const, "episode" as const),
  sessionId: fc.option(fc.constantFrom(...SESSIONS), { nil: null }),
  speaker: fc.option(fc.constantFrom(...SPEAKERS), { nil: null }),
  metadata: tags,
  expiresAt: fc.option(fc.constantFrom(NOW - 1, NOW, NOW + 1), { nil: null }),
  messageTime: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  createdAt: fc.integer({ min: 0, max: 100 }),
  supersededBy: fc.constant(null),
});

const condition = fc.oneof(
  value,
  fc
    .record(
      {
        eq: value,
        in: fc.array(value, { minLength: 1, maxLength: 3 }),
        ne: value,
        exists: fc.boolean(),
        gt: fc.constantFrom(0, 1, 2),
        gte: fc.constantFrom(0, 1, 2),
        lt: fc.constantFrom(1, 2, 3),
        lte: fc.constantFrom(1, 2, 3),
      },
      { requiredKeys: [] },
    )
    .filter((o) => Object.keys(o).length > 0),
);

const clause = fc.record(
  {
    session_ids: fc.uniqueArray(fc.constantFrom(...SESSIONS), { minLength: 1 }),
    speakers: fc.uniqueArray(fc.constantFrom(...SPEAKERS), { minLength: 1 }),
    metadata: fc.dictionary(fc.constantFrom(...KEYS), condition, { minKeys: 1, maxKeys: 3 }),
  },
  { requiredKeys: [] },
);

const filter: fc.Arbitrary<MemoryFilter> = fc
  .record(
    {
      clause,
      any: fc.array(clause, { minLength: 1, maxLength: 3 }),
      time_range: fc.record({ from: fc.integer({ min: 0, max: 100 }), to: fc.integer({ min: 0, max: 100 }) }, { requiredKeys: [] }),
    },
    { requiredKeys: ["clause"] },
  )
  .map(({ clause: c, ...rest }) => ({ ...c, ...rest }));

describe("the filter in SQL", () => {
  it("selects exactly the memories the predicate passes (random memories × random filters, SQLite)", () => {
    const db = new DatabaseSync(":memory:");
    db.exec(`CREATE TABLE nodes (id INTEGER PRIMARY KEY, kind TEXT, session_id TEXT, speaker TEXT, metadata TEXT,
      expires_at INTEGER, message_time INTEGER, created_at INTEGER, superseded_by INTEGER)`);
    const dialect = new SQLiteSyncDialect();
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 25 }), filter, (nodes, f) => {
        db.exec("DELETE FROM nodes");
        const insert = db.prepare("INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        nodes.forEach((n, i) =>
          insert.run(
            i + 1,
            n.kind,
            n.sessionId,
            n.speaker,
            n.metadata === null ? null : JSON.stringify(n.metadata),
            n.expiresAt,
            n.messageTime,
            n.createdAt,
            null,
          ),
        );
        const query = dialect.sqlToQuery(filterConditions(MemoryFilterSchema.parse(f), NOW, "nodes"));
        const rows = db.prepare(`SELECT id FROM nodes WHERE 1 ${query.sql} ORDER BY id`).all(...(query.params as SQLInputValue[]));
        const selected = rows.map((r) => Number(r.id));
        const expected = nodes.flatMap((n, i) => (passes(n, f) ? [i + 1] : []));
        expect(selected).toEqual(expected);
      }),
      { numRuns: 400, seed: 36 },
    );
  });
});
