import { describe, expect, it } from "vitest";
import { purgedContent, scrubResult, valuesAt } from "../../../src/engine/result-scrub";

const carrier = { kind: "createMemory", nodes: ["$.node_id", "$.candidates[*].node_id"], names: ["$.focus", "$.entities"] };

describe("scrubResult (docs/design.md, Purge)", () => {
  it("takes a result its task wrote a purged node for, or that names one at a node path", () => {
    const purged = purgedContent([7], ["tsk_a"], []);
    expect(scrubResult("tsk_a", { node_id: 3 }, carrier, purged)).toEqual({ action: "take" });
    expect(scrubResult("tsk_b", { node_id: 7 }, carrier, purged)).toEqual({ action: "take" });
    expect(scrubResult("tsk_b", { candidates: [{ node_id: 2 }, { node_id: 7 }] }, carrier, purged)).toEqual({ action: "take" });
    expect(scrubResult("tsk_b", { node_id: 3, focus: ["Anna"] }, carrier, purged)).toEqual({ action: "keep" });
    expect(scrubResult("tsk_b", { node_id: 3 }, undefined, purged)).toEqual({ action: "keep" });
  });

  it("takes purged names out of name lists by their entity key (case, possessive), keeping the rest", () => {
    const purged = purgedContent([], [], ["Zephyrine Okonkwo"]);
    const result = { node_id: 3, focus: ["Anna", "zephyrine okonkwo's", "Berlin"], entities: ["Anna"] };
    expect(scrubResult("tsk_b", result, carrier, purged)).toEqual({
      action: "rewrite",
      result: { node_id: 3, focus: ["Anna", "Berlin"], entities: ["Anna"] },
    });
    expect(result.focus).toHaveLength(3);
  });
});

describe("valuesAt", () => {
  it("reads keys and every element of arrays; nothing where the shape differs", () => {
    const value = { a: { b: 1 }, list: [{ id: 1 }, { id: 2 }, 3] };
    expect(valuesAt(value, "$.a.b")).toEqual([1]);
    expect(valuesAt(value, "$.list[*].id")).toEqual([1, 2]);
    expect(valuesAt(value, "$.missing.b")).toEqual([]);
    expect(valuesAt(null, "$.a")).toEqual([]);
  });
});
