import { describe, expect, it } from "vitest";
import { memoryNode } from "../memory-node";
import { asksQuestion, recallMemories, type RecallNetwork } from "../../../src/memory/recall-engine";
import { queryTerms } from "../../../src/language/tokens/index-terms";

describe("text evidence with the network as context (BM25F)", () => {
  it("takes a segment ending with a question mark for a question, in English and Chinese", () => {
    expect(asksQuestion(memoryNode(0, { content: "That plate is awesome! Did you make it?" }))).toBe(true);
    expect(asksQuestion(memoryNode(0, { content: "你周末去哪儿了？」" }))).toBe(true);
    expect(asksQuestion(memoryNode(0, { content: "Yeah, I made it in pottery class." }))).toBe(false);
    expect(asksQuestion(memoryNode(0, { content: "What do you think? [shares a photo: a bowl]" }))).toBe(false);
  });
});

describe("recall's vector entry points", () => {
  // 1 holds the query's words; 2 only what a semantic embedder relates to them; 3 is the vector search's weakest hit.
  const nodes = new Map([
    [1, memoryNode(1, { content: "We booked the flight to Lisbon" })],
    [2, memoryNode(2, { content: "Our trip abroad starts on Monday" })],
    [3, memoryNode(3, { content: "The plumber comes at noon" })],
  ]);
  const network = (asked: boolean[]): RecallNetwork => ({
    traverse: async (start) => ({
      reached: new Map(
        [...start].flatMap(([id, s]) =>
          [nodes.get(id)].flatMap((node) => (node ? [[id, { node, depth: 0, pathStrength: s }] as const] : [])),
        ),
      ),
      edges: [],
      dangling: [],
    }),
    expand: async () => [],
    outgoingStrengths: async (ids) => new Map(ids.map((id) => [id, [1]])),
    statistics: async (terms) => ({ documents: 3, tokens: 15, documentFrequency: new Map(terms.map((t) => [t, 1])) }),
    entryPoints: async (_query, _limit, vectors) => {
      asked.push(vectors);
      return {
        keyword: new Map([[1, 2]]),
        vector: vectors
          ? new Map([
              [2, 0.9],
              [1, 0.6],
              [3, 0.1],
            ])
          : new Map<number, number>(),
      };
    },
  });
  const settings = (vector: number) => ({
    depth: 1,
    limit: 10,
    start: "hybrid" as const,
    fields: { neighbours: 0, entities: 0, speaker: 0, time: 0 },
    ranking: { vector, prior: 0 },
    maxTraces: 0,
  });

  it("returns a memory the vector search found though it holds no query word, and none of it at vector weight 0", async () => {
    const asked: boolean[] = [];
    const terms = queryTerms("flight to Lisbon");
    const withVectors = await recallMemories(network(asked), [], terms, "flight to Lisbon", settings(0.5));
    // 3 is the weakest vector hit (similarity 0 after min-max): nothing vouches for it.
    expect(withVectors.memories.map((m) => m.id)).toEqual([1, 2]);
    const without = await recallMemories(network(asked), [], terms, "flight to Lisbon", settings(0));
    expect(without.memories.map((m) => m.id)).toEqual([1]);
    expect(asked).toEqual([true, false]);
  });
});
