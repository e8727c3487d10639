import { describe, expect, it } from "vitest";
import { pickEvictions, sampleIds, seededRandom } from "../../../src/memory/capacity";

describe("capacity sampling", () => {
  it("samples distinct ids in range, all of them when the range is small, reproducibly", () => {
    expect(sampleIds(5, 9, 100, seededRandom(1))).toEqual([5, 6, 7, 8, 9]);
    const a = sampleIds(1, 10_000, 50, seededRandom(42));
    expect(new Set(a).size).toBe(50);
    expect(a.every((id) => id >= 1 && id <= 10_000)).toBe(true);
    expect(sampleIds(1, 10_000, 50, seededRandom(42))).toEqual(a);
    expect(sampleIds(1, 10_000, 50, seededRandom(43))).not.toEqual(a);
  });

  it("evicts the least important, the oldest first on ties", () => {
    const nodes = [
      { id: 1, importance: 2 },
      { id: 2, importance: 0.1 },
      { id: 3, importance: 0.5 },
      { id: 4, importance: 0.1 },
    ];
    expect(pickEvictions(nodes, 3)).toEqual([2, 4, 3]);
    expect(pickEvictions(nodes, 0)).toEqual([]);
  });
});
