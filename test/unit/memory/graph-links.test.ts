import { describe, expect, it } from "vitest";
import { GraphLinks, type GraphLink } from "../../../src/memory/graph-links";
import { packed } from "./packed-fixture";
import { PINNED_LEVEL } from "../../../src/memory/strength";

const link = (source: number, target: number, level = 0, relation = "相关") => ({ source, target, relation, level, createdAt: 0 });
/** A link's fields as the graph answers them (the link objects also carry their slots). */
const plain = ({ source, target, relation, level, createdAt }: GraphLink): GraphLink => ({ source, target, relation, level, createdAt });

describe("the graph's links", () => {
  it("follows INSERT … DO NOTHING and DO UPDATE by (source, target, relation), and deletes by key", () => {
    const links = new GraphLinks();
    links.add(link(1, 2, 0));
    links.add(link(1, 2, 5)); // kept as it was
    links.add(link(1, 2, 0, "关于"));
    expect(links.count).toBe(2);
    links.set(link(1, 2, 7));
    expect(links.of(1).map((l) => [l.relation, l.level])).toEqual([
      ["相关", 7],
      ["关于", 0],
    ]);
    links.delete([
      { source: 1, target: 2, relation: "关于" },
      { source: 9, target: 9, relation: "x" },
    ]);
    expect(links.all().map((l) => l.relation)).toEqual(["相关"]);
  });

  it("gives a link named before its node existed that node's slot, and deletes a node's outgoing links but keeps incoming ones dangling", () => {
    const links = new GraphLinks();
    links.add(link(1, 2));
    links.add(link(3, 1));
    for (const id of [1, 2, 3]) links.addNode(id);
    const reach = () => {
      const t = links.traverse(new Map([[1, 1]]), 1, [], 0);
      return { ids: t.order.map((slot) => t.idOf(slot)).sort(), dangling: t.dangling.length };
    };
    expect(reach()).toEqual({ ids: [1, 2, 3], dangling: 0 });
    links.deleteNodes([2]);
    expect(reach()).toEqual({ ids: [1, 3], dangling: 1 });
    links.deleteNodes([3]);
    expect(links.all().map((l) => [l.source, l.target])).toEqual([[1, 2]]);
  });

  it("pins the links of a node that enters the focus, restarts those of one that leaves at the clock, and breaks only links below a level", () => {
    const links = new GraphLinks();
    links.add(link(1, 2, 3));
    links.add(link(2, 3, 4));
    links.refocus([2], [], (id) => id === 2, 10);
    expect(links.all().map((l) => l.level)).toEqual([PINNED_LEVEL, PINNED_LEVEL]);
    expect(links.below(100)).toEqual([]);
    links.refocus([], [2], () => false, 10);
    expect(links.all().map((l) => l.level)).toEqual([10, 10]);
    expect(links.below(11)).toHaveLength(2);
    expect(links.below(10)).toEqual([]);
  });

  it("loads links in bulk (a wake from the object's copy) into the state add() builds one at a time, and keys them when a write needs it", () => {
    const list: GraphLink[] = [link(1, 2, 0.5), link(2, 1, 3, "上文"), link(2, 3, PINNED_LEVEL), link(3, 9, -2), link(1, 3, 1, "关于")];
    const fresh = (): GraphLinks => {
      const links = new GraphLinks();
      for (const id of [1, 2, 3]) links.addNode(id);
      return links;
    };
    const one = fresh();
    for (const l of list) one.add(l);
    const bulk = fresh();
    bulk.load(packed(list));
    const state = (links: GraphLinks) => {
      const t = links.traverse(new Map([[1, 1]]), 2, [], 0);
      return {
        count: links.count,
        of: [1, 2, 3, 9].map((id) => links.of(id).map(plain)),
        incident: links.incident([2], [], 0),
        reached: t.order.map((slot) => t.idOf(slot)),
        dangling: t.dangling.length,
        below: links.below(0),
      };
    };
    expect(state(bulk)).toEqual(state(one));
    // Keyed writes after the load: a duplicate is ignored, an update and a delete find their link.
    for (const links of [one, bulk]) {
      links.add(link(1, 2, 99));
      links.set(link(2, 3, 4));
      links.delete([{ source: 2, target: 1, relation: "上文" }]);
      links.deleteNodes([3]);
    }
    expect(state(bulk)).toEqual(state(one));
    expect(bulk.count).toBe(3);
    expect(bulk.all().map(plain)).toEqual(one.all().map(plain));
    // Into a graph that already has links, a load goes through add(): duplicates are not doubled.
    bulk.load(packed(list));
    one.load(packed(list));
    expect(bulk.count).toBe(one.count);
    expect(bulk.all().length).toBe(bulk.count);
  });
});
