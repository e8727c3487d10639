import { describe, expect, it } from "vitest";
import { bm25Idf, bm25TokenScore } from "../../../src/search/bm25-index";
import { queryTokens, scoreCandidates } from "../../../src/search/bm25-candidates";

describe("BM25 over candidates with the agent's statistics", () => {
  const stats = {
    documents: 10,
    tokens: 40,
    documentFrequency: new Map([
      ["lake", 2],
      ["camp", 5],
    ]),
  };

  it("scores by Okapi BM25 with the given corpus statistics, best first, newer id first on a tie, at most `limit`", () => {
    const hits = scoreCandidates(
      ["lake", "camp"],
      [
        { id: 1, terms: "camp lake lake" },
        { id: 2, terms: "camp" },
        { id: 3, terms: "camp" },
        { id: 4, terms: "river" },
      ],
      stats,
      3,
    );
    const lake = bm25Idf(2, 10);
    const camp = bm25Idf(5, 10);
    expect(hits.map((h) => h.id)).toEqual([1, 3, 2]);
    expect(hits[0]?.score).toBeCloseTo(bm25TokenScore(lake, 2, 3, 4) + bm25TokenScore(camp, 1, 3, 4), 10);
    expect(hits[1]?.score).toBeCloseTo(bm25TokenScore(camp, 1, 1, 4), 10);
  });

  it("finds nothing in an empty corpus, for a zero limit, or for a term no document holds", () => {
    expect(scoreCandidates(["lake"], [{ id: 1, terms: "lake" }], { ...stats, documents: 0 }, 5)).toEqual([]);
    expect(scoreCandidates(["lake"], [{ id: 1, terms: "lake" }], stats, 0)).toEqual([]);
    expect(scoreCandidates(["absent"], [{ id: 1, terms: "absent" }], stats, 5)).toEqual([]);
    expect(queryTokens(["lake", "lake"])).toEqual(["lake"]);
  });
});
