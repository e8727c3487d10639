import { describe, expect, it } from "vitest";
import { memoryNode } from "../memory-node";
import { FieldScorer, type FieldWeights } from "../../../src/memory/field-score";
import { bm25Idf, BM25_K1 } from "../../../src/search/bm25-index";
import { documentFields } from "../../../src/search/fts-text";
import type { MemoryNode } from "../../../src/vocabulary/records";

describe("text evidence with the network as context (BM25F)", () => {
  const weights: FieldWeights = { neighbours: 0.4, entities: 0.2, speaker: 1, time: 0.5 };
  const doc = (content: string, extra: Partial<MemoryNode> = {}) => documentFields(memoryNode(0, { content, ...extra }));
  // Ten documents of average length 4 terms; "lake" in two of them.
  const stats = {
    documents: 10,
    tokens: 40,
    documentFrequency: new Map([
      ["lake", 2],
      ["melanie", 5],
    ]),
  };

  it("scores a memory's own words by Okapi BM25 and its neighbours' at a lower weight, below its own", () => {
    const scorer = new FieldScorer(["lake"], stats, weights);
    const idf = bm25Idf(2, 10);
    // One occurrence in a document of average length: tf̃ = 1, score = idf.
    const own = scorer.score(doc("lake trip summer fun"), { neighbours: [], entities: [] });
    expect(own.score).toBeCloseTo(idf, 12);
    expect(own.matched).toBe(1);
    // The same words one turn away: tf̃ = 0.4, score = idf · 0.4 · (k1 + 1) / (k1 + 0.4).
    const next = scorer.score(doc("it was so much fun"), { neighbours: [doc("lake trip summer fun")], entities: [] });
    expect(next.score).toBeCloseTo((idf * 0.4 * (BM25_K1 + 1)) / (BM25_K1 + 0.4), 12);
    expect(next.matched).toBe(1);
    expect(next.score).toBeLessThan(own.score);
    // Both: the fields add before saturation, so more, but not twice as much.
    const both = scorer.score(doc("lake trip summer fun"), { neighbours: [doc("lake trip summer fun")], entities: [] });
    expect(both.score).toBeGreaterThan(own.score);
    expect(both.score).toBeLessThan(2 * own.score);
  });

  it("counts speaker and time for the score, never as a match by themselves", () => {
    const scorer = new FieldScorer(["melanie", "lake"], stats, weights);
    const said = scorer.score(doc("lake trip summer fun", { speaker: "Melanie" }), { neighbours: [], entities: [] });
    const other = scorer.score(doc("lake trip summer fun", { speaker: "Caroline" }), { neighbours: [], entities: [] });
    expect(said.score).toBeGreaterThan(other.score);
    expect(said.matched).toBe(1);
    expect(scorer.score(doc("nothing here at all", { speaker: "Melanie" }), { neighbours: [], entities: [] }).matched).toBe(0);
  });

  it("lends the names of linked entities, and nothing when a field's weight is 0", () => {
    const withEntity = new FieldScorer(["lake"], stats, weights).score(doc("we swam all day"), { neighbours: [], entities: [doc("lake")] });
    expect(withEntity.matched).toBe(1);
    expect(withEntity.score).toBeGreaterThan(0);
    const textOnly = new FieldScorer(["lake"], stats, { neighbours: 0, entities: 0, speaker: 0, time: 0 });
    expect(textOnly.score(doc("we swam all day"), { neighbours: [doc("lake")], entities: [doc("lake")] })).toEqual({
      score: 0,
      matched: 0,
    });
  });

  it("scores an answer with the question it answers as its own words, and a question below its answer", () => {
    const scorer = new FieldScorer(["lake"], stats, weights);
    const question = doc("did you swim in the lake?");
    const answer = doc("yes all day long");
    const asked = scorer.score(question, { neighbours: [answer], entities: [], asks: true });
    const answered = scorer.score(answer, { neighbours: [], entities: [], asked: [question] });
    // The question's words count for the answer at full weight: as if the answer said them.
    expect(answered.score).toBeCloseTo(scorer.score(question, { neighbours: [], entities: [] }).score, 12);
    expect(answered.matched).toBe(1);
    expect(asked.score).toBeLessThan(answered.score);
    expect(asked.score).toBeLessThan(scorer.score(question, { neighbours: [answer], entities: [] }).score);
    // Without neighbours (text only) the question lends nothing.
    const textOnly = new FieldScorer(["lake"], stats, { neighbours: 0, entities: 0, speaker: 0, time: 0 });
    expect(textOnly.score(answer, { neighbours: [], entities: [], asked: [question] }).matched).toBe(0);
  });
});
