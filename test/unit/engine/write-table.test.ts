import { describe, expect, it } from "vitest";
import { d1Statements, writesRows } from "../../../src/engine/d1-writes";
import type { AgentRepos } from "../../../src/engine/runtime";
import { vectorChanges } from "../../../src/engine/vector-writes";
import type { ObjectState, OpOf, WriteTable } from "../../../src/engine/write-kind";
import { WRITE_TABLE, WriteOpSchema } from "../../../src/engine/write-table";
import type { NetworkOp, WriteOp } from "../../../src/memory/write-ops";
import { createDb } from "../../../src/storage/db";
import { FtsRepo } from "../../../src/storage/fts-repo";
import { LinkRepo } from "../../../src/storage/link-repo";
import { NodeRepo } from "../../../src/storage/node-repo";
import { newNode, type MemoryNode, type TextUpdate } from "../../../src/vocabulary/records";

/** What the table's type accepts (each refusal below is a compile error that tsc requires). */
const table = (t: WriteTable): WriteTable => t;
const without = <T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> => {
  const copy = { ...o };
  delete copy[key];
  return copy;
};

/** Repositories whose statements are only built, never run (drizzle touches the binding only to run). */
function repos(): AgentRepos {
  const db = createDb({} as D1Database);
  return {
    agentUid: 1,
    placement: { uid: 1, d1: "DB", key: 7, vectors: null, jurisdiction: null, region: null },
    d1: {} as D1Database,
    nodes: new NodeRepo(db, 7),
    links: new LinkRepo(db, 7),
    fts: new FtsRepo(db, 7),
    registry: undefined as never,
  };
}

const text = (id: number, content: string): TextUpdate => ({ id, kind: "segment", speaker: null, content, phrase: content, keywords: [] });
const node = (id: number): MemoryNode =>
  newNode({
    id,
    kind: "segment",
    name: null,
    content: `memory ${id}`,
    originalLength: 8,
    phrase: "memory",
    keywords: [],
    role: "user",
    speaker: "Ann",
    sourceMessageIds: [],
    sourceTaskId: null,
    messageTime: null,
    createdAt: 1,
  });

describe("the write table", () => {
  it("does not compile without a row per kind of write, with a row for none, or with a column of another kind", () => {
    expect(table(WRITE_TABLE)).toBe(WRITE_TABLE);
    // @ts-expect-error the row of `count` is missing
    table(without(WRITE_TABLE, "count"));
    // @ts-expect-error a row for no kind of write
    table({ ...WRITE_TABLE, pin: WRITE_TABLE.count });
    // @ts-expect-error bookkeeping never reaches D1
    table({ ...WRITE_TABLE, count: { ...WRITE_TABLE.count, d1: () => [] } });
    // @ts-expect-error a network write without its graph column
    table({ ...WRITE_TABLE, deleteLinks: without(WRITE_TABLE.deleteLinks, "graph") });
    // @ts-expect-error a network write must say what it does to the vector index (null: nothing)
    table({ ...WRITE_TABLE, setLinks: without(WRITE_TABLE.setLinks, "vectors") });
    const countColumn = (_state: ObjectState, op: OpOf<"count">) => void op.counters;
    // @ts-expect-error a column written for another kind's operation
    table({ ...WRITE_TABLE, setClock: { ...WRITE_TABLE.setClock, object: countColumn } });
  });

  it("parses every kind's stored form and refuses an unknown kind", () => {
    const ops: WriteOp[] = [
      { type: "createNodes", nodes: [node(1)] },
      { type: "deleteNodes", ids: [1] },
      { type: "setFocus", focus: [{ nodeId: 2, key: "ann", name: "Ann" }], released: [3], clock: 0.5, epoch: 4 },
      { type: "updateText", update: text(5, "short") },
      { type: "patchNodes", ids: [6], fields: { supersededBy: 7 } },
      { type: "count", counters: { memories: 1 } },
    ];
    for (const op of ops) expect(WriteOpSchema.parse(JSON.parse(JSON.stringify(op)))).toEqual(op);
    expect(WriteOpSchema.safeParse({ type: "pinMemory", ids: [1] }).success).toBe(false);
    expect(WriteOpSchema.safeParse({ type: "deleteNodes", ids: ["1"] }).success).toBe(false);
    // A patch names only what a node may have set after it was written, never its text.
    expect(WriteOpSchema.safeParse({ type: "patchNodes", ids: [1], fields: { content: "x" } }).success).toBe(false);
  });

  it("reads a supersession stored before patchNodes replaced it as the patch it became", () => {
    expect(WriteOpSchema.parse({ type: "supersede", id: 3, by: 9 })).toEqual({ type: "patchNodes", ids: [3], fields: { supersededBy: 9 } });
  });

  it("patches only the fields a patch names, and writes nothing for an empty one", () => {
    const r = repos();
    const [set] = d1Statements(r, [{ type: "patchNodes", ids: [3, 4], fields: { supersededBy: 9 } }]);
    expect(set?.sql).toMatch(/^UPDATE nodes SET "superseded_by" = \? WHERE agent = \? AND id IN/);
    expect(set?.params.slice(0, 2)).toEqual([9, 7]);
    expect(d1Statements(r, [{ type: "patchNodes", ids: [3], fields: {} }])).toEqual([]);
  });

  it("sends a run of text updates to D1 as one statement per table, and every other operation in its place", () => {
    const r = repos();
    const ops: NetworkOp[] = [
      { type: "updateText", update: text(1, "one") },
      { type: "updateText", update: text(2, "two") },
      { type: "deleteLinks", keys: [{ source: 1, target: 2, relation: "上文" }] },
      { type: "updateText", update: text(3, "three") },
    ];
    const statements = d1Statements(r, ops);
    const ids = (i: number) => [...JSON.stringify(statements[i]?.params).matchAll(/\\"(?:id|nodeId)\\":(\d+)/g)].map((m) => Number(m[1]));
    expect(statements.map((s) => s.sql.trim().split(/\s+/).slice(0, 3).join(" "))).toEqual([
      "WITH u AS",
      "INSERT OR REPLACE",
      "UPDATE link_blocks SET",
      "WITH u AS",
      "INSERT OR REPLACE",
    ]);
    expect([ids(0), ids(1), ids(3), ids(4)]).toEqual([[1, 2], [1, 2], [3], [3]]);
    expect(d1Statements(undefined, ops)).toEqual([]);
  });

  it("registers the agent for every write of rows, not for a focus change that releases nothing or a purge", () => {
    expect(writesRows({ type: "createLinks", links: [] })).toBe(true);
    expect(writesRows({ type: "setFocus", focus: [], released: [], clock: 0, epoch: 1 })).toBe(false);
    expect(writesRows({ type: "setFocus", focus: [], released: [4], clock: 0, epoch: 1 })).toBe(true);
    expect(writesRows({ type: "purgeAgent", nodeIds: [1] })).toBe(false);
  });

  it("embeds created and compressed nodes, and only removes a node deleted later in the same list", () => {
    const changes = vectorChanges([
      { type: "createNodes", nodes: [node(1), node(2)] },
      { type: "updateText", update: text(3, "compressed") },
      { type: "setLinks", links: [] },
      { type: "deleteNodes", ids: [2] },
    ]);
    expect(changes.upsert.map((n) => n.id)).toEqual([1, 3]);
    expect(changes.remove).toEqual([2]);
  });
});
