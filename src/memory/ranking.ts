/**
 * Ranking of recalled memories (docs/design.md, "recall(keywords, relations, depth)"). One score per memory:
 *
 *   relevance = (1 − w_v) · text / max text + w_v · vector
 *   prior     = (path strength from the focus + min(importance, 1)) / 2           ∈ [0, 1]
 *   score     = relevance · (1 + λ · prior)
 *
 * `text` is the memory's BM25F score with its network as context (field-score.ts), normalised by
 * the best candidate's; `vector` is its similarity to the query among the vector hits, min-max
 * normalised (0 when the vector search did not return it); w_v is the embedder's fusion weight
 * (src/config/retrieval.ts). What the network adds beyond text — how strongly the current focus
 * leads to the memory and how firmly the memory is held — is a bounded prior: it can lift a memory
 * by at most λ (recall_graph_prior) of its relevance, so it orders near-ties and never outranks
 * clearly better evidence. Without query terms there is no relevance and the prior alone orders
 * the memories the search reached. Ties go to the newer node. Pure, so the order is unit-tested.
 */

export interface RankedMemory<N> {
  id: number;
  node: N;
  /** Distinct query terms found in the memory's text or its context. */
  hits: number;
  /** BM25F text score (before normalisation). */
  textScore: number;
  /** Vector similarity, min-max normalised over the vector hits; 0 when not among them. */
  similarity: number;
  /** Strongest path from the focus (0 when the focus does not reach it). */
  pathStrength: number;
  /** Sum of outgoing strengths; filled in only where it can change the order (importanceNeeded). */
  importance: number;
  depth: number;
  /** The ranking score. */
  score: number;
}

export interface RankingWeights {
  /** Fusion weight of the vector similarity, in [0, 1]. */
  vector: number;
  /** λ: the largest relative lift the network prior gives. */
  prior: number;
}

/** The network's prior of a memory, in [0, 1]. */
export function networkPrior(pathStrength: number, importance: number): number {
  return (Math.min(Math.max(pathStrength, 0), 1) + Math.min(Math.max(importance, 0), 1)) / 2;
}

/** Relevance of each item: text normalised by the best text score, fused with the vector similarity. */
export function relevance<N>(items: readonly RankedMemory<N>[], weights: RankingWeights): Map<number, number> {
  const best = Math.max(0, ...items.map((i) => i.textScore));
  const out = new Map<number, number>();
  for (const item of items) {
    const text = best > 0 ? item.textScore / best : 0;
    out.set(item.id, (1 - weights.vector) * text + weights.vector * item.similarity);
  }
  return out;
}

/** Fills in every item's score from its relevance and the prior; without relevance, the prior alone. */
export function scoreMemories<N>(items: RankedMemory<N>[], weights: RankingWeights, hasQuery: boolean): void {
  const rel = relevance(items, weights);
  for (const item of items) {
    const prior = networkPrior(item.pathStrength, item.importance);
    item.score = hasQuery ? (rel.get(item.id) ?? 0) * (1 + weights.prior * prior) : prior;
  }
}

export function compareMemories<N>(a: RankedMemory<N>, b: RankedMemory<N>): number {
  return b.score - a.score || b.id - a.id;
}

export function rankMemories<N>(items: readonly RankedMemory<N>[], limit: number): RankedMemory<N>[] {
  return [...items].sort(compareMemories).slice(0, limit);
}

/**
 * The items whose importance can still matter for the top `limit` (importance costs a read of
 * every link): those whose relevance, lifted by the largest prior, reaches the `limit`-th best
 * relevance. Without query terms the prior is the whole score, so every item needs it.
 */
export function importanceNeeded<N>(
  items: readonly RankedMemory<N>[],
  limit: number,
  weights: RankingWeights,
  hasQuery: boolean,
): number[] {
  if (!hasQuery) return items.map((i) => i.id);
  const rel = relevance(items, weights);
  const sorted = [...rel.values()].sort((a, b) => b - a);
  const bar = sorted[Math.min(limit, sorted.length) - 1];
  if (bar === undefined) return [];
  return items.filter((i) => (rel.get(i.id) ?? 0) * (1 + weights.prior) >= bar).map((i) => i.id);
}
