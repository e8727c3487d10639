/** Corrections read from a node's view, the link form's request, and a purged node leaving the model. */
import { describe, expect, it } from "vitest";
import { LINK_RELATIONS, linkRequest, parseMemoryRef } from "../../src/actions/link-request";
import { actionsFor } from "../../src/actions/node-actions";
import { correctionsOf, hasConflicts, isSuperseded } from "../../src/graph/corrections";
import { GraphModel } from "../../src/graph/model";
import { correctionMarks, nodeLabel } from "../../src/graph/style";
import { link, nodeView } from "./fixtures";

describe("correctionsOf", () => {
  it("finds the version that superseded a memory, from superseded_by or its 被更正 link", () => {
    const old = nodeView(4, [link(4, 9, 1, { relation: "被更正" })], [link(9, 4, 1, { relation: "更正" })], { superseded_by: 9 });
    expect(correctionsOf(old)).toEqual({ supersededBy: 9, supersedes: [], conflictsWith: [] });
    const { superseded_by: _, ...older } = nodeView(4, [link(4, 9, 1, { relation: "被更正" })]);
    expect(correctionsOf(older).supersededBy).toBe(9);
    expect(isSuperseded(old)).toBe(true);
  });

  it("lists the versions a memory corrects and the live memories it contradicts, once each", () => {
    const view = nodeView(
      9,
      [link(9, 4, 1, { relation: "更正" }), link(9, 7, 0.5, { relation: "矛盾" }), link(9, 8, 0.5, { relation: "矛盾", dangling: true })],
      [link(7, 9, 0.5, { relation: "矛盾" }), link(3, 9, 1)],
    );
    expect(correctionsOf(view)).toEqual({ supersededBy: null, supersedes: [4], conflictsWith: [7] });
    expect(hasConflicts(view)).toBe(true);
    expect(hasConflicts(nodeView(1, [link(1, 2, 1)]))).toBe(false);
  });

  it("marks superseded and contradicting nodes on the canvas and in labels; ghosts carry no marks", () => {
    const model = new GraphModel();
    const node = model.applyView(nodeView(4, [link(4, 9, 1, { relation: "被更正" })], [], { superseded_by: 9, phrase: "Alice Paris" }));
    expect(correctionMarks(node)).toEqual({ superseded: true, conflict: false });
    expect(nodeLabel(node)).toBe("superseded: Alice Paris");
    model.markForgotten(4);
    expect(correctionMarks(node)).toEqual({ superseded: false, conflict: false });
  });
});

describe("memory operations in the node panel", () => {
  it("offers edit, link, delete and purge (confirmed) on a current memory, none on a superseded version or an entity", () => {
    const model = new GraphModel();
    const current = model.applyView(nodeView(1));
    const superseded = model.applyView(nodeView(2, [], [], { superseded_by: 5 }));
    const entity = model.applyView(nodeView(3, [], [], { kind: "entity" }));
    const writes = (n: typeof current) => actionsFor(n).filter((a) => a.kind === "write");
    expect(writes(current).map((a) => a.id)).toEqual(["edit", "link", "delete", "purge"]);
    expect(writes(superseded).map((a) => a.id)).toEqual([]);
    expect(writes(entity)).toEqual([]);
    for (const a of writes(current)) expect(a.confirm !== undefined).toBe(a.id === "delete" || a.id === "purge");
    expect(writes(current)[3]?.confirm?.(current).question).toContain("Purge memory #1?");
  });
});

describe("the link form", () => {
  it("reads node ids with or without #, and anything else as a description", () => {
    expect(parseMemoryRef(" #12 ")).toBe(12);
    expect(parseMemoryRef("12")).toBe(12);
    expect(parseMemoryRef("arrived late at the conference")).toBe("arrived late at the conference");
    expect(parseMemoryRef("登录模块")).toBe("登录模块");
    expect(parseMemoryRef("0")).toBe("0");
    expect(parseMemoryRef("   ")).toBeNull();
  });

  it("builds the request or says what is wrong, before anything is sent", () => {
    expect(linkRequest({ source: "#3", target: "the budget", relation: "causes", strength: "" })).toEqual({
      ok: true,
      params: { source: 3, target: "the budget", relation: "causes" },
    });
    expect(linkRequest({ source: "3", target: "4", relation: "based_on", strength: "0.8" })).toEqual({
      ok: true,
      params: { source: 3, target: 4, relation: "based_on", strength: 0.8 },
    });
    const problem = (fields: Parameters<typeof linkRequest>[0]) => {
      const r = linkRequest(fields);
      return r.ok ? null : r.problem;
    };
    expect(problem({ source: "", target: "4", relation: "causes", strength: "" })).toMatch(/^Source/);
    expect(problem({ source: "#4", target: "4", relation: "causes", strength: "" })).toMatch(/same memory/);
    expect(problem({ source: "3", target: "4", relation: "更正", strength: "" })).toMatch(/^Relation/);
    expect(problem({ source: "3", target: "4", relation: "causes", strength: "1.5" })).toMatch(/^Strength/);
    expect(LINK_RELATIONS.map((r) => r.name)).toEqual(["相关", "导致", "因为", "所以", "引用", "基于"]);
  });
});

describe("GraphModel.remove (purge)", () => {
  it("takes the node and every link touching it off the screen", () => {
    const model = new GraphModel();
    model.addNeighbours(nodeView(1, [link(1, 2, 0.5)], [link(3, 1, 0.7)]), 10);
    model.applyView(nodeView(2, [], [link(1, 2, 0.5)]));
    model.applyView(nodeView(3, [link(3, 1, 0.7)]));
    expect(model.neighbours(1).sort()).toEqual([2, 3]);
    model.remove(1);
    expect(model.get(1)).toBeUndefined();
    expect(model.links.size).toBe(0);
    expect(model.counts()).toMatchObject({ nodes: 2, links: 0, ghosts: 0 });
  });
});
