import { describe, expect, it } from "vitest";
import { packGraph, unpackGraph } from "../../../src/engine/graph-snapshot";
import { MemoryGraph } from "../../../src/memory/graph";
import { newNode, type MemoryNode } from "../../../src/vocabulary/records";
import { memoryNode } from "../memory-node";

describe("the object's copy of the network", () => {
  it("gives back every field of every node as stored (each field a value no other field has)", () => {
    const nodes: MemoryNode[] = [
      newNode({
        id: 7,
        kind: "segment",
        name: null,
        content: "Caroline went camping with her kids in July.",
        originalLength: 44,
        phrase: "went camping",
        keywords: ["camping", "kids"],
        role: "user",
        speaker: "Caroline",
        sourceMessageIds: ["m-1", "m-2"],
        sourceTaskId: "tsk_1",
        messageTime: 1_688_000_000_000,
        createdAt: 1_700_000_000_001,
        supersededBy: 9,
        meta: { note: "x" },
        pinned: true,
        sessionId: "s-1",
        metadata: { topic: "trips" },
        expiresAt: 1_900_000_000_000,
      }),
      memoryNode(8, {
        kind: "entity",
        name: "caroline",
        content: "Caroline",
        originalLength: 8,
        phrase: "Caroline",
        createdAt: 1_700_000_000_002,
      }),
    ];
    const graph = new MemoryGraph();
    for (const node of nodes) graph.addNode(node);
    graph.addLink({ source: 7, target: 8, relation: "关于", level: 3, createdAt: 5 });
    const [header = new Uint8Array(), ...rest] = [packGraph(graph).header, ...packGraph(graph).body];
    const loaded = unpackGraph({ header, body: rest });
    expect(loaded).toBeDefined();
    for (const node of nodes) expect(loaded?.node(node.id)).toEqual(node);
    expect(loaded?.allLinks()).toEqual(
      graph.allLinks().map(({ source, target, relation, level, createdAt }) => ({ source, target, relation, level, createdAt })),
    );
  });
});
