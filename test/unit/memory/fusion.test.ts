import { describe, expect, it } from "vitest";
import { fuseScores, normalisedScores } from "../../../src/memory/fusion";

describe("fusion of keyword and vector lists", () => {
  it("normalises BM25 by its best and cosine over its range", () => {
    expect([
      ...normalisedScores(
        new Map([
          [1, 4],
          [2, 2],
        ]),
        "max",
      ),
    ]).toEqual([
      [1, 1],
      [2, 0.5],
    ]);
    expect(
      [
        ...normalisedScores(
          new Map([
            [1, 0.9],
            [2, 0.5],
            [3, 0.7],
          ]),
          "min-max",
        ),
      ].map(([id, s]) => [id, +s.toFixed(6)]),
    ).toEqual([
      [1, 1],
      [2, 0],
      [3, 0.5],
    ]);
  });

  it("keeps the strong list's order at a small weight and breaks its near-ties with the weak one", () => {
    const keyword = new Map([
      [1, 10],
      [2, 5],
      [3, 4.9],
    ]);
    const vector = new Map([
      [3, 0.9],
      [2, 0.3],
      [4, 0.8],
    ]);
    expect(
      fuseScores([
        { scores: keyword, weight: 0.9, normalise: "max" },
        { scores: vector, weight: 0.1, normalise: "min-max" },
      ]).map((f) => f.id),
    ).toEqual([1, 3, 2, 4]);
    // At an even weight the vector list reorders it.
    expect(
      fuseScores([
        { scores: keyword, weight: 0.5, normalise: "max" },
        { scores: vector, weight: 0.5, normalise: "min-max" },
      ]).map((f) => f.id),
    ).toEqual([3, 1, 4, 2]);
  });
});
