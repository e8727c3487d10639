import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../src/memory/capacity";
import { GraphLinks, type GraphLink } from "../../../src/memory/graph-links";
import { packed } from "./packed-fixture";
import { PINNED_LEVEL } from "../../../src/memory/strength";

const RELATIONS = ["相关", "上文", "下文", "关于"];

/** A network as a copy holds it: nodes 1…n less some deleted ones, links from nodes to any id (dangling into deleted ones), self-links, unique keys. */
function network(seed: number): { nodes: number[]; links: GraphLink[]; ids: number[] } {
  const rand = seededRandom(seed);
  const n = 5 + Math.floor(rand() * 40);
  // Dense ids as an agent's are, and sparse ones (looked up by map, not by array) on odd seeds.
  const scale = seed % 2 === 0 ? 1 : 1_000_003;
  const ids = Array.from({ length: n }, (_, i) => (i + 1) * scale);
  const nodes = ids.filter(() => rand() > 0.15);
  const keys = new Set<string>();
  const links: GraphLink[] = [];
  for (let k = 0; k < n * 4; k++) {
    const source = nodes[Math.floor(rand() * nodes.length)] ?? 1;
    const target = rand() < 0.1 ? source : (ids[Math.floor(rand() * ids.length)] ?? 1);
    const relation = RELATIONS[Math.floor(rand() * RELATIONS.length)] ?? "相关";
    const key = `${source}|${target}|${relation}`;
    if (keys.has(key)) continue;
    keys.add(key);
    const level = rand() < 0.1 ? PINNED_LEVEL : Math.round((rand() * 40 - 20) * 100) / 100;
    links.push({ source, target, relation, level, createdAt: Math.floor(rand() * 1e6) });
  }
  return { nodes, links, ids };
}

const plain = ({ source, target, relation, level, createdAt }: GraphLink): GraphLink => ({ source, target, relation, level, createdAt });

/** Every read a wake's first calls make, over the node ids only (what keeps the links packed). */
function reads(links: GraphLinks, nodes: readonly number[], ids: readonly number[], clock: number) {
  const traversals = [1, 2, 3].map((depth) => {
    const start = new Map(nodes.slice(0, 3).map((id, i) => [id, 1 - i * 0.25]));
    const t = links.traverse(start, depth, depth === 2 ? ["关于", "上文"] : [], clock);
    return {
      order: t.order.map((slot) => t.idOf(slot)),
      layers: t.order.map((slot) => t.layerOf[slot]),
      best: t.order.map((slot) => t.best[slot]),
      dangling: t.dangling,
    };
  });
  return {
    count: links.count,
    traversals,
    of: nodes.map((id) => links.of(id).map(plain)),
    outgoing: ids.map((id) => links.outgoingOf(id).map(plain)),
    incident: links.incident(nodes.slice(2, 9), [], clock),
    incidentOf: links.incident(nodes.slice(0, 4), ["下文"], clock),
    linkedBy: nodes.map((id) => links.linkedBy(id, "关于", (other) => other % 3 !== 0)),
    below: [-10, 0, 10].map((level) => links.below(level)),
    all: links.all().map(plain),
  };
}

describe("links read as a wake loaded them (packed)", () => {
  it("answer every read as the link objects do, make no link object for them, and after the first change follow it as add() would", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { nodes, links: list, ids } = network(seed);
      const fresh = (): GraphLinks => {
        const links = new GraphLinks();
        for (const id of nodes) links.addNode(id);
        return links;
      };
      const one = fresh();
      for (const l of list) one.add(l);
      const bulk = fresh();
      bulk.load(packed(list));
      const clock = seed % 7;
      expect(reads(bulk, nodes, ids, clock), `seed ${seed}`).toEqual(reads(one, nodes, ids, clock));
      expect(bulk.isPacked, `seed ${seed}`).toBe(true);

      // The lists of an id that is no node (links into a deleted memory) come from the link objects.
      const gone = ids.find((id) => !nodes.includes(id));
      if (gone !== undefined) {
        expect(bulk.of(gone).map(plain), `seed ${seed}`).toEqual(one.of(gone).map(plain));
        expect(bulk.isPacked).toBe(false);
      }

      // A change unpacks; the two stay equal through every kind of change.
      const [a = 1, b = 2, c = 3] = nodes;
      for (const links of [one, bulk]) {
        links.set({ source: a, target: b, relation: "相关", level: 5, createdAt: 1 });
        links.refocus([b], [c], (id) => id === b, 12);
        links.delete(list.slice(0, 3));
        links.deleteNodes([c]);
        links.addNode(c);
        links.add({ source: c, target: a, relation: "上文", level: 1, createdAt: 2 });
      }
      expect(bulk.isPacked).toBe(false);
      expect(reads(bulk, nodes, ids, clock + 1), `seed ${seed}`).toEqual(reads(one, nodes, ids, clock + 1));
    }
  });

  it("unpacks at the first change of any kind", () => {
    const list: GraphLink[] = [
      { source: 1, target: 2, relation: "相关", level: 1, createdAt: 0 },
      { source: 2, target: 1, relation: "上文", level: 2, createdAt: 0 },
    ];
    const changes: ((links: GraphLinks) => void)[] = [
      (l) => l.add({ source: 1, target: 2, relation: "下文", level: 0, createdAt: 0 }),
      (l) => l.set({ source: 1, target: 2, relation: "相关", level: 3, createdAt: 0 }),
      (l) => l.delete([{ source: 1, target: 2, relation: "相关" }]),
      (l) => l.deleteNodes([2]),
      (l) => l.addNode(3),
      (l) => l.refocus([1], [], (id) => id === 1, 0),
    ];
    for (const change of changes) {
      const links = new GraphLinks();
      links.addNode(1);
      links.addNode(2);
      links.load(packed(list));
      links.deleteNodes([]);
      links.refocus([], [], () => false, 0);
      expect(links.isPacked).toBe(true);
      change(links);
      expect(links.isPacked).toBe(false);
    }
  });
});
