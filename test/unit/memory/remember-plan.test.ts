import { describe, expect, it } from "vitest";
import { MemoryGraph } from "../../../src/memory/graph";
import type { NetworkOp } from "../../../src/memory/write-ops";
import { writeKind } from "../../../src/engine/write-table";
import { RELATION } from "../../../src/vocabulary/relations";
import { planFocus, planRemember, relationPairs, rememberOps } from "../../../src/memory/remember-plan";
import { PINNED_LEVEL, strengthAt } from "../../../src/memory/strength";

/** A committed network write as the graph follows it: its row of the write table (src/engine/write-table.ts). */
function applyToGraph(graph: MemoryGraph, op: NetworkOp): void {
  writeKind(op.type).graph?.(graph, op);
}

describe("remember plan", () => {
  const extraction = (entities: string[]) => ({ phrase: "p", keywords: entities, entities });
  const messages = [
    { role: "user" as const, content: "a", id: "m1", name: "Ann", timestamp: 1000 },
    { role: "assistant" as const, content: "b", id: "m2" },
    { role: "user" as const, content: "c" },
  ];
  const segments = [
    { text: "Alice met Bob.", messageIndexes: [0] },
    { text: "They talked about JWT.", messageIndexes: [1] },
    { text: "Alice liked it.", messageIndexes: [2] },
  ];
  const extractions = [extraction(["Alice", "Bob"]), extraction(["JWT"]), extraction(["alice"])];

  it("allocates ids in order and replays the focus segment by segment", () => {
    const plan = planFocus({ focus: [], focusLimit: 2, nextNodeId: 10, extractions, existingEntities: new Map() });
    expect(plan.segmentIds).toEqual([10, 13, 15]);
    expect(plan.newEntities.map((e) => [e.nodeId, e.key])).toEqual([
      [11, "alice"],
      [12, "bob"],
      [14, "jwt"],
    ]);
    expect(plan.focusAfter.map((f) => f.map((e) => e.key))).toEqual([
      ["alice", "bob"],
      ["jwt", "alice"],
      ["alice", "jwt"],
    ]);
    expect(plan.finalFocus.map((f) => f.key)).toEqual(["alice", "jwt"]);
    expect(plan.nextNodeId).toBe(16);
  });

  it("links segments to the focus at 1 (pinned when still in focus) and neighbours at the initial strength", () => {
    const focusPlan = planFocus({ focus: [], focusLimit: 2, nextNodeId: 10, extractions, existingEntities: new Map() });
    const pairs = relationPairs(focusPlan);
    const plan = planRemember({
      taskId: "tsk_x",
      epoch: 7,
      now: 5,
      clock: 2,
      linkInitialStrength: 0.5,
      messages,
      segments,
      extractions,
      focusPlan,
      relations: pairs.map(() => RELATION.about),
    });
    expect(plan.nodes).toHaveLength(6);
    expect(plan.links).toHaveLength(2 * 2 + 2 * (2 + 2 + 2));
    // Levels as they stand once the plan is applied (the focus pins what is in it at the end).
    const graph = new MemoryGraph();
    for (const op of rememberOps(plan, 7)) applyToGraph(graph, op);
    const link = (s: number, t: number) => graph.allLinks().find((l) => l.source === s && l.target === t);
    expect(link(10, 13)).toMatchObject({ relation: RELATION.next });
    expect(strengthAt(link(10, 13)?.level ?? 0, 2)).toBeCloseTo(0.5, 12);
    expect(link(13, 10)).toMatchObject({ relation: RELATION.previous });
    expect(link(10, 11)?.level).toBe(PINNED_LEVEL);
    expect(link(11, 10)?.level).toBe(PINNED_LEVEL);
    // Bob fell out of focus during the task: his links are plain strength 1, not pinned.
    expect(strengthAt(link(10, 12)?.level ?? 0, 2)).toBe(1);
    expect(link(10, 12)?.level).toBeLessThan(PINNED_LEVEL);
    expect(plan.focus.map((f) => f.nodeId)).toEqual([11, 14]);
    expect(plan.released).toEqual([12]);
    // Every link the task writes carries its epoch and time.
    expect(plan.links.every((l) => l.epoch === 7 && l.createdAt === 5)).toBe(true);
    const first = plan.nodes.find((n) => n.id === 10);
    expect(first).toMatchObject({
      kind: "segment",
      speaker: "Ann",
      role: "user",
      sourceMessageIds: ["m1"],
      messageTime: 1000,
      originalLength: 14,
    });
    expect(plan.nodes.find((n) => n.id === 15)?.sourceMessageIds).toEqual(["tsk_x#2"]);
    expect(plan.nodes.find((n) => n.id === 11)).toMatchObject({ kind: "entity", name: "alice", content: "Alice" });
  });

  it("reuses existing entity nodes and does not create them again", () => {
    const focusPlan = planFocus({
      focus: [],
      focusLimit: 5,
      nextNodeId: 50,
      extractions: [extraction(["ALICE"])],
      existingEntities: new Map([["alice", { nodeId: 7, name: "Alice" }]]),
    });
    expect(focusPlan.newEntities).toEqual([]);
    expect(focusPlan.finalFocus).toEqual([{ nodeId: 7, key: "alice", name: "Alice" }]);
  });
});
