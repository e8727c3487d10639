import { describe, expect, it } from "vitest";
import { breadthFirst, type Edge } from "../../../src/memory/bfs";

describe("breadth-first search", () => {
  // 1 → 2 → 3 → 4, 2 → 9 (9 does not exist: dangling), 5 isolated.
  const links: Edge[] = [
    { source: 1, target: 2, relation: "关于", strength: 1 },
    { source: 2, target: 3, relation: "下文", strength: 0.5 },
    { source: 3, target: 4, relation: "下文", strength: 0.5 },
    { source: 2, target: 9, relation: "下文", strength: 0.25 },
  ];
  const existing = new Set([1, 2, 3, 4, 5]);
  const calls = { expand: 0, load: 0 };
  const source = (relations: string[] = []) => ({
    async expand(frontier: number[]) {
      calls.expand += 1;
      return links.filter(
        (l) => (frontier.includes(l.source) || frontier.includes(l.target)) && (relations.length === 0 || relations.includes(l.relation)),
      );
    },
    async load(ids: number[]) {
      calls.load += 1;
      return new Map(ids.filter((id) => existing.has(id)).map((id) => [id, { id }]));
    },
  });

  it("reaches one more layer per depth, in both directions, with path strengths", async () => {
    const d1 = await breadthFirst(new Map([[2, 1]]), 1, source());
    expect([...d1.reached.keys()].sort()).toEqual([1, 2, 3]);
    const d2 = await breadthFirst(new Map([[2, 1]]), 2, source());
    expect([...d2.reached.keys()].sort()).toEqual([1, 2, 3, 4]);
    expect(d2.reached.get(4)).toMatchObject({ depth: 2, pathStrength: 0.25 });
    expect(d2.reached.get(1)).toMatchObject({ depth: 1, pathStrength: 1 });
  });

  it("reports dangling links as traces and does not follow them", async () => {
    const result = await breadthFirst(new Map([[1, 1]]), 3, source());
    expect(result.dangling).toEqual([{ source: 2, target: 9, relation: "下文", strength: 0.25 }]);
    expect(result.reached.has(9)).toBe(false);
  });

  it("follows only the given relations", async () => {
    const result = await breadthFirst(new Map([[1, 1]]), 3, source(["关于"]));
    expect([...result.reached.keys()].sort()).toEqual([1, 2]);
  });

  it("costs one expand and one load per layer", async () => {
    calls.expand = 0;
    calls.load = 0;
    await breadthFirst(new Map([[1, 1]]), 3, source());
    expect(calls).toEqual({ expand: 3, load: 4 });
  });
});
