/**
 * Ranking of recalled memories (docs/design.md §5): keyword hits first, then path strength from the start
 * nodes, then importance, then similarity to the query (for memories found through search); ties
 * go to the newer node. Keyword hits are weighted by how rare each keyword is among the memories
 * the search reached (keywordWeights): a hit on a word every memory shares (a speaker's name) says
 * less than a hit on a rare one. Pure, so the order is unit-tested.
 */

import { bm25Idf } from "../search/bm25-index";

/**
 * BM25's inverse document frequency of each keyword over `total` memories, `matching[k]` of which
 * match keyword k: ln(1 + (N − df + 0.5) / (df + 0.5)). Always positive, so any hit still counts.
 */
export function keywordWeights(matching: readonly number[], total: number): number[] {
  return matching.map((df) => bm25Idf(df, total));
}

export interface RankedMemory<N> {
  id: number;
  node: N;
  /** Distinct keywords matched. */
  hits: number;
  /** The matched keywords' weights summed: what ranks first. */
  keywordScore: number;
  pathStrength: number;
  importance: number;
  /** Search score of the memory, normalised to (0, 1] (0 when not found by search). */
  similarity: number;
  depth: number;
}

export function compareMemories<N>(a: RankedMemory<N>, b: RankedMemory<N>): number {
  return (
    b.keywordScore - a.keywordScore ||
    b.hits - a.hits ||
    b.pathStrength - a.pathStrength ||
    b.importance - a.importance ||
    b.similarity - a.similarity ||
    b.id - a.id
  );
}

export function rankMemories<N>(items: readonly RankedMemory<N>[], limit: number): RankedMemory<N>[] {
  return [...items].sort(compareMemories).slice(0, limit);
}

/**
 * The items whose importance can still change the top `limit`: those ranked there by the keys
 * before importance, and every item tied with the last of them on those keys.
 */
export function importanceNeeded<N>(items: readonly RankedMemory<N>[], limit: number): number[] {
  const before = (a: RankedMemory<N>, b: RankedMemory<N>) =>
    b.keywordScore - a.keywordScore || b.hits - a.hits || b.pathStrength - a.pathStrength;
  const sorted = [...items].sort(before);
  const boundary = sorted[Math.min(limit, sorted.length) - 1];
  if (!boundary) return [];
  return sorted.filter((item, index) => index < limit || before(item, boundary) === 0).map((item) => item.id);
}
