import { describe, expect, it } from "vitest";
import { importanceNeeded, networkPrior, rankMemories, scoreMemories, type RankedMemory } from "../../../src/memory/ranking";

const ranked = (id: number, textScore: number, pathStrength = 0, importance = 0, similarity = 0): RankedMemory<number> => ({
  id,
  node: id,
  hits: 1,
  textScore,
  similarity,
  pathStrength,
  importance,
  depth: 1,
  score: 0,
});

describe("ranking and output", () => {
  it("ranks by text relevance, the network only lifting near-ties, the newer node first on a tie", () => {
    const weights = { vector: 0, prior: 0.1 };
    // 2 is clearly better text; 3 and 5 tie on text, 5 is held more firmly; 1 and 4 tie on everything.
    const items = [ranked(1, 5), ranked(2, 8, 0, 0), ranked(3, 5, 0, 0.2), ranked(4, 5), ranked(5, 5, 1, 1)];
    scoreMemories(items, weights, true);
    expect(rankMemories(items, 10).map((r) => r.id)).toEqual([2, 5, 3, 4, 1]);
    // The prior lifts by at most 10%: full path strength and importance never beat clearly better text.
    const strongNetwork = [ranked(1, 10), ranked(2, 9, 1, 5)];
    scoreMemories(strongNetwork, weights, true);
    expect(rankMemories(strongNetwork, 2).map((r) => r.id)).toEqual([1, 2]);
    expect(networkPrior(1, 5)).toBe(1);
    expect(networkPrior(0.5, 0.25)).toBe(0.375);
  });

  it("fuses the vector similarity at its weight, and orders by the network alone without a query", () => {
    const items = [ranked(1, 10, 0, 0, 0), ranked(2, 9.5, 0, 0, 1)];
    scoreMemories(items, { vector: 0.1, prior: 0 }, true);
    expect(rankMemories(items, 2).map((r) => r.id)).toEqual([2, 1]);
    const noQuery = [ranked(1, 0, 0.5, 1), ranked(2, 0, 1, 1), ranked(3, 0, 1, 0.5)];
    scoreMemories(noQuery, { vector: 0.1, prior: 0.1 }, false);
    expect(rankMemories(noQuery, 3).map((r) => r.id)).toEqual([2, 3, 1]);
  });
});

describe("importance only where it can decide", () => {
  it("asks for the items that the largest prior could lift into the top", () => {
    const weights = { vector: 0, prior: 0.1 };
    const items = [ranked(1, 10), ranked(2, 8), ranked(3, 7.5), ranked(4, 7.2), ranked(5, 6), ranked(6, 7.3)];
    // Third best relevance 0.75 (item 3): 4 (0.72 · 1.1 = 0.79) and 6 (0.73 · 1.1) can reach it, 5 cannot.
    expect(importanceNeeded(items, 3, weights, true).sort()).toEqual([1, 2, 3, 4, 6]);
    expect(importanceNeeded(items, 1, weights, true)).toEqual([1]);
    expect(importanceNeeded([], 5, weights, true)).toEqual([]);
    // Without a query the network is the whole score: every item needs it.
    expect(importanceNeeded(items, 1, weights, false)).toHaveLength(6);
  });
});
