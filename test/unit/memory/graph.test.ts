import { describe, expect, it } from "vitest";
import { memoryNode } from "../memory-node";
import { breadthFirst } from "../../../src/memory/bfs";
import { seededRandom } from "../../../src/memory/capacity";
import { ftsDocument } from "../../../src/search/fts-text";
import { queryTerms } from "../../../src/language/tokens/index-terms";
import { MemoryGraph } from "../../../src/memory/graph";
import type { NetworkOp } from "../../../src/memory/write-ops";
import { writeKind } from "../../../src/engine/write-table";
import { PINNED_LEVEL } from "../../../src/memory/strength";

/** A committed network write as the graph follows it: its row of the write table (src/engine/write-table.ts). */
function applyToGraph(graph: MemoryGraph, op: NetworkOp): void {
  writeKind(op.type).graph?.(graph, op);
}

describe("query and memory terms (one analyzer)", () => {
  it("keeps the in-memory index's term lookups exact as the graph's texts change", () => {
    const random = seededRandom(5);
    const words = ["painting", "paintings", "dog", "support", "group", "Isabella", "the", "登录", "模块", "用户系统", "jwt", "he"];
    const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)] ?? "").join(" ");
    const graph = new MemoryGraph();
    const make = (id: number) =>
      memoryNode(id, {
        content: text(6),
        originalLength: 40,
        phrase: text(1),
        keywords: [text(1)],
        speaker: random() < 0.3 ? "Isabella" : null,
      });
    for (let id = 1; id <= 80; id++) graph.addNode(make(id));
    const terms = queryTerms("paintings support group isabella 登录模块 用户 JWT absent");
    const check = () => {
      const index = graph.textIndex();
      for (const term of terms) {
        const scanned = graph.nodeIds().filter((id) => {
          const node = graph.node(id);
          return node !== undefined && ftsDocument(node).split(" ").includes(term);
        });
        expect(
          [...index.withToken(term)].sort((a, b) => a - b),
          term,
        ).toEqual(scanned.sort((a, b) => a - b));
      }
    };
    check();
    applyToGraph(graph, {
      type: "updateText",
      update: { id: 4, kind: "segment", speaker: null, content: "support group on Friday", phrase: "support", keywords: [] },
    });
    applyToGraph(graph, { type: "deleteNodes", ids: [5, 7] });
    graph.addNode(make(90));
    check();
  });
});

describe("the in-memory graph", () => {
  const node = (id: number, kind: "segment" | "entity" = "segment") => memoryNode(id, { kind, name: kind === "entity" ? `e${id}` : null });

  it("traverses exactly as the generic BFS does (reach, depth, path strength, dangling)", async () => {
    const random = seededRandom(7);
    for (let round = 0; round < 5; round++) {
      const graph = new MemoryGraph();
      for (let id = 1; id <= 120; id++) graph.addNode(node(id, id % 10 === 0 ? "entity" : "segment"));
      for (let i = 0; i < 400; i++) {
        const source = 1 + Math.floor(random() * 120);
        const target = 1 + Math.floor(random() * 130); // some targets never exist: dangling
        const relation = ["关于", "相关", "下文", "上文"][Math.floor(random() * 4)] ?? "关于";
        graph.addLink({ source, target, relation, level: random() < 0.2 ? PINNED_LEVEL : Math.log(0.05 + random() * 0.95), createdAt: 0 });
      }
      applyToGraph(graph, { type: "deleteNodes", ids: [3, 17] });
      const start = new Map([
        [10, 1],
        [20, 1],
        [33, 0.5],
      ]);
      for (const relations of [[], ["关于", "下文"]]) {
        for (const depth of [1, 2, 3]) {
          const generic = await breadthFirst(start, depth, {
            expand: async (frontier) => graph.incident(frontier, relations, 0),
            load: async (ids) => graph.load(ids),
          });
          applyToGraph(graph, { type: "deleteNodes", ids: [100_000] }); // no such node, but it counts as a change: the next walk uses the lists
          const overLists = graph.traverse(start, depth, relations, 0, "关于");
          const overCopy = graph.traverse(start, depth, relations, 0, "关于");
          for (const fast of [overLists, overCopy]) {
            const view = (r: typeof fast.reached) =>
              [...r].map(([id, x]) => [id, x.depth, x.pathStrength]).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
            expect(view(fast.reached)).toEqual(view(generic.reached));
            const dangling = (d: typeof fast.dangling) => d.map((l) => `${l.source}>${l.target}>${l.relation}`).sort();
            expect(dangling(fast.dangling)).toEqual(dangling(generic.dangling));
          }
        }
      }
    }
  });

  it("traverses the current links after every kind of change (the compact copy is rebuilt)", async () => {
    const random = seededRandom(11);
    const graph = new MemoryGraph();
    for (let id = 1; id <= 60; id++) graph.addNode(node(id, id % 10 === 0 ? "entity" : "segment"));
    const addRandomLinks = (n: number, maxTarget: number) => {
      for (let i = 0; i < n; i++) {
        const source = 1 + Math.floor(random() * 60);
        const target = 1 + Math.floor(random() * maxTarget);
        graph.addLink({
          source,
          target,
          relation: random() < 0.5 ? "关于" : "下文",
          level: Math.log(0.05 + random() * 0.95),
          createdAt: 0,
        });
      }
    };
    addRandomLinks(150, 70); // targets 61–70 do not exist yet
    const start = new Map([
      [10, 1],
      [20, 1],
    ]);
    const compare = async (clock: number) => {
      const generic = await breadthFirst(start, 3, {
        expand: async (frontier) => graph.incident(frontier, [], clock),
        load: async (ids) => graph.load(ids),
      });
      // The first traversal after a change walks the link lists, the next ones the compact copy.
      for (const fast of [graph.traverse(start, 3, [], clock, "关于"), graph.traverse(start, 3, [], clock, "关于")]) {
        const view = (r: typeof fast.reached) =>
          [...r].map(([id, x]) => [id, x.depth, x.pathStrength]).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
        expect(view(fast.reached)).toEqual(view(generic.reached));
        expect(fast.dangling.length).toBe(generic.dangling.length);
      }
    };
    await compare(0);
    for (let id = 61; id <= 65; id++) graph.addNode(node(id)); // links named them before they existed
    await compare(0);
    addRandomLinks(40, 65);
    await compare(0.3); // the clock moved: strengths decay
    const focus = (ids: number[]) => ids.map((id) => ({ nodeId: id, key: `e${id}`, name: `e${id}` }));
    applyToGraph(graph, { type: "setFocus", focus: focus([10, 33]), released: [], clock: 0.3, epoch: 1 });
    await compare(0.3);
    applyToGraph(graph, { type: "setFocus", focus: focus([10]), released: [33], clock: 0.3, epoch: 2 });
    await compare(0.6);
    applyToGraph(graph, { type: "deleteLinks", keys: graph.linksBelow(Math.log(0.3)) });
    await compare(0.6);
    applyToGraph(graph, { type: "deleteNodes", ids: [5, 20, 62] });
    graph.addNode(node(66)); // takes a freed slot
    addRandomLinks(20, 66);
    await compare(0.6);
  });

  it("mirrors deletes and breaks: outgoing links go, incoming ones stay dangling", () => {
    const graph = new MemoryGraph();
    for (const id of [1, 2, 3]) graph.addNode(node(id));
    graph.addLink({ source: 1, target: 2, relation: "下文", level: 0, createdAt: 0 });
    graph.addLink({ source: 2, target: 1, relation: "上文", level: 0, createdAt: 0 });
    graph.addLink({ source: 2, target: 3, relation: "下文", level: -10, createdAt: 0 });
    graph.addLink({ source: 1, target: 2, relation: "下文", level: -1, createdAt: 0 }); // ignored: same key
    expect(graph.linkCount).toBe(3);
    applyToGraph(graph, { type: "deleteLinks", keys: graph.linksBelow(-5) });
    expect(
      graph
        .allLinks()
        .map((l) => `${l.source}>${l.target}`)
        .sort(),
    ).toEqual(["1>2", "2>1"]);
    applyToGraph(graph, { type: "deleteNodes", ids: [2] });
    expect(graph.allLinks().map((l) => `${l.source}>${l.target}`)).toEqual(["1>2"]);
    expect(graph.node(2)).toBeUndefined();
  });
});
