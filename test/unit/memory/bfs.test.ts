import { describe, expect, it } from "vitest";
import { breadthFirst, type Edge } from "../../../src/memory/bfs";
import { seededRandom } from "../../../src/memory/capacity";

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

  it("examines each link once, as a walk that keeps every link's key does (random networks with dangling links and self-links)", async () => {
    const random = seededRandom(3);
    for (let round = 0; round < 20; round++) {
      const all: Edge[] = [];
      const keys = new Set<string>();
      for (let i = 0; i < 300; i++) {
        const edge = {
          source: 1 + Math.floor(random() * 80),
          target: 1 + Math.floor(random() * 90), // 81–90 never exist: dangling
          relation: random() < 0.5 ? "关于" : "下文",
          strength: 0.05 + random() * 0.95,
        };
        const key = `${edge.source}>${edge.target}>${edge.relation}`;
        if (!keys.has(key)) all.push(edge);
        keys.add(key);
      }
      const walk: Parameters<typeof breadthFirst<{ id: number }>>[2] = {
        expand: async (frontier) => all.filter((l) => frontier.includes(l.source) || frontier.includes(l.target)),
        load: async (ids) => new Map(ids.filter((id) => id <= 80).map((id) => [id, { id }])),
      };
      const start = new Map([
        [1 + Math.floor(random() * 80), 1],
        [1 + Math.floor(random() * 80), 0.5],
      ]);
      for (const depth of [1, 2, 3, 4]) {
        const walked = await breadthFirst(start, depth, walk);
        const reference = await keyedWalk(start, depth, walk);
        expect([...walked.reached]).toEqual([...reference.reached]);
        expect(walked.edges).toEqual(reference.edges);
        expect(walked.dangling).toEqual(reference.dangling);
      }
    }
  });

  it("costs one expand and one load per layer", async () => {
    calls.expand = 0;
    calls.load = 0;
    await breadthFirst(new Map([[1, 1]]), 3, source());
    expect(calls).toEqual({ expand: 3, load: 4 });
  });
});

/** The walk as it was written before (every examined link's key kept in a set): the reference. */
async function keyedWalk<N>(start: ReadonlyMap<number, number>, depth: number, source: Parameters<typeof breadthFirst<N>>[2]) {
  const reached = new Map<number, { node: N; depth: number; pathStrength: number }>();
  for (const [id, node] of await source.load([...start.keys()])) reached.set(id, { node, depth: 0, pathStrength: start.get(id) ?? 1 });
  const edges: Edge[] = [];
  const dangling: Edge[] = [];
  const seen = new Set<string>();
  const knownMissing = new Set<number>();
  let frontier = [...reached.keys()];
  for (let layer = 1; layer <= depth && frontier.length > 0; layer++) {
    const found = await source.expand(frontier);
    const inFrontier = new Set(frontier);
    const candidates = new Map<number, number>();
    const pending: Edge[] = [];
    for (const edge of found) {
      const key = `${edge.source}>${edge.target}>${edge.relation}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pending.push(edge);
      const ends: [number, number][] = [];
      if (inFrontier.has(edge.source)) ends.push([edge.source, edge.target]);
      if (inFrontier.has(edge.target)) ends.push([edge.target, edge.source]);
      for (const [from, to] of ends) {
        if (reached.has(to) || knownMissing.has(to)) continue;
        candidates.set(to, Math.max(candidates.get(to) ?? 0, (reached.get(from)?.pathStrength ?? 0) * edge.strength));
      }
    }
    const loaded = await source.load([...candidates.keys()]);
    for (const [id, strength] of candidates) {
      const node = loaded.get(id);
      if (node === undefined) knownMissing.add(id);
      else reached.set(id, { node, depth: layer, pathStrength: strength });
    }
    for (const edge of pending) {
      if (reached.has(edge.source) && reached.has(edge.target)) edges.push(edge);
      else if (reached.has(edge.source) && knownMissing.has(edge.target)) dangling.push(edge);
    }
    frontier = [...candidates.keys()].filter((id) => reached.has(id));
  }
  return { reached, edges, dangling };
}
