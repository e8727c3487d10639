import { describe, expect, it } from "vitest";
import { touchFocus, type FocusEntry } from "../../../src/memory/focus-lru";

const entry = (nodeId: number, name = `e${nodeId}`): FocusEntry => ({ nodeId, key: name.toLowerCase(), name });

describe("focus LRU", () => {
  it("puts the most salient mention first and evicts the least recently mentioned", () => {
    let focus: FocusEntry[] = [];
    for (const id of [1, 2, 3, 4, 5]) focus = touchFocus(focus, [entry(id)], 5).focus;
    expect(focus.map((f) => f.nodeId)).toEqual([5, 4, 3, 2, 1]);
    const change = touchFocus(focus, [entry(6)], 5);
    expect(change.focus.map((f) => f.nodeId)).toEqual([6, 5, 4, 3, 2]);
    expect(change.entered.map((f) => f.nodeId)).toEqual([6]);
    expect(change.left.map((f) => f.nodeId)).toEqual([1]);
  });

  it("moves a re-mentioned entity to the front without duplicating it", () => {
    const focus = [entry(3), entry(2), entry(1)];
    const change = touchFocus(focus, [entry(1), entry(2)], 5);
    expect(change.focus.map((f) => f.nodeId)).toEqual([1, 2, 3]);
    expect(change.entered).toEqual([]);
    expect(change.left).toEqual([]);
  });
});
