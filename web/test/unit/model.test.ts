import { describe, expect, it } from "vitest";
import { GraphModel, rankLinks } from "../../src/graph/model";
import { link, nodeView } from "./fixtures";

describe("GraphModel", () => {
  it("adds a node's neighbours strongest first, up to the cap, and links them", () => {
    const model = new GraphModel();
    const view = nodeView(1, [link(1, 2, 0.2), link(1, 3, 0.9), link(1, 4, 1, { pinned: true })], [link(5, 1, 0.5)]);
    const { added, ghosts, hidden } = model.addNeighbours(view, 2);
    expect(added).toEqual([4, 3]);
    expect(ghosts).toEqual([]);
    expect(hidden).toBe(2);
    expect(model.get(1)?.status).toBe("loaded");
    expect(model.get(4)?.status).toBe("pending");
    expect([...model.links.keys()].sort()).toEqual(["1>3>关于", "1>4>关于"]);
    expect(model.hiddenNeighbours(1)).toBe(2);
    // Expanding again brings the rest.
    expect(model.addNeighbours(view, 10).added).toEqual([5, 2]);
    expect(model.hiddenNeighbours(1)).toBe(0);
    expect(model.links.size).toBe(4);
  });

  it("draws dangling links to a ghost, which needs no reading", () => {
    const model = new GraphModel();
    const { added, ghosts } = model.addNeighbours(nodeView(1, [link(1, 9, 0.3, { dangling: true }), link(1, 2, 0.4)]), 10);
    expect(added).toEqual([2]);
    expect(ghosts).toEqual([9]);
    expect(model.get(9)?.status).toBe("ghost");
    expect(model.links.get("1>9>关于")?.dangling).toBe(true);
    expect(model.counts()).toEqual({ nodes: 3, links: 2, ghosts: 1, pending: 1 });
  });

  it("follows a re-read: strengths change, broken links go, a deleted node becomes a ghost", () => {
    const model = new GraphModel();
    model.addNeighbours(nodeView(1, [link(1, 2, 1), link(1, 3, 0.5)]), 10);
    model.applyView(nodeView(2, [link(2, 1, 1)], [link(1, 2, 1)]));
    model.applyView(nodeView(3, [], [link(1, 3, 0.5)]));
    expect(model.links.size).toBe(3);
    const structure = model.structureVersion;
    // A cycle later: 1→2 decayed, 1→3 broke.
    model.applyView(nodeView(1, [link(1, 2, 0.25)], [link(2, 1, 1)]));
    expect(model.links.get("1>2>关于")?.strength).toBe(0.25);
    expect(model.links.has("1>3>关于")).toBe(false);
    expect(model.structureVersion).toBeGreaterThan(structure);
    // Node 2 was deleted (404): its outgoing link goes with it, links into it stay, dangling.
    model.markForgotten(2);
    expect(model.get(2)?.status).toBe("ghost");
    expect(model.get(2)?.view?.node_id).toBe(2);
    expect(model.links.has("2>1>关于")).toBe(false);
    expect(model.links.get("1>2>关于")?.dangling).toBe(true);
  });

  it("turns a shown node into a ghost when a link to it comes back dangling", () => {
    const model = new GraphModel();
    model.addNeighbours(nodeView(1, [link(1, 2, 1)]), 10);
    model.applyView(nodeView(1, [link(1, 2, 0.5, { dangling: true })]));
    expect(model.get(2)?.status).toBe("ghost");
  });

  it("ranks pinned links first, then by strength, live before dangling", () => {
    const ranked = rankLinks([link(1, 2, 0.5), link(1, 3, 0.5, { dangling: true }), link(1, 4, 0.9), link(1, 5, 1, { pinned: true })]).map(
      (l) => l.target,
    );
    expect(ranked).toEqual([5, 4, 2, 3]);
  });
});
