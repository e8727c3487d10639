import { describe, expect, it } from "vitest";
import { importanceOf, retainedShare } from "../../../src/memory/importance";

describe("importance", () => {
  it("is the sum of outgoing strengths; the retained share is capped at 1", () => {
    expect(importanceOf([0.5, 0.25, 1])).toBe(1.75);
    expect(importanceOf([])).toBe(0);
    expect(retainedShare(0.4)).toBe(0.4);
    expect(retainedShare(3)).toBe(1);
  });
});
