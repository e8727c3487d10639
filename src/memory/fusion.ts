/**
 * Fusion of ranked lists (keyword and vector search) by a convex combination of normalised scores:
 *
 *   score(d) = Σ_i w_i · norm_i(s_i(d))        (a list that does not hold d adds 0)
 *
 * with BM25 scores divided by the list's best (BM25's floor is 0) and cosine similarities min-max
 * normalised over the list. Bruch, Gai & Ingber (2023, "An analysis of fusion functions for hybrid
 * retrieval") found this better than reciprocal-rank fusion and its weight easy to set: unlike
 * RRF, whose rank-only scores let a weak list reorder a strong one by whole ranks, a small weight
 * here keeps the strong list's order and breaks its near-ties. The weights say how good each list
 * is; the vector weight is the embedder's (src/config/retrieval.ts).
 */

export type Normalisation = "max" | "min-max";

export interface ScoredList {
  scores: ReadonlyMap<number, number>;
  weight: number;
  normalise: Normalisation;
}

export interface Fused {
  id: number;
  score: number;
}

/** Scores of a list mapped to [0, 1]: by the best (max) or over the list's range (min-max). */
export function normalisedScores(scores: ReadonlyMap<number, number>, mode: Normalisation): Map<number, number> {
  let max = -Infinity;
  let min = Infinity;
  for (const s of scores.values()) {
    if (s > max) max = s;
    if (s < min) min = s;
  }
  const floor = mode === "max" ? 0 : min;
  const span = max - floor;
  return new Map([...scores].map(([id, s]) => [id, span > 0 ? Math.max(0, s - floor) / span : 1]));
}

/** The fused list, best first; ties go to the newer (higher) id. */
export function fuseScores(lists: readonly ScoredList[]): Fused[] {
  const fused = new Map<number, number>();
  for (const list of lists) {
    if (list.weight <= 0 || list.scores.size === 0) continue;
    for (const [id, s] of normalisedScores(list.scores, list.normalise)) fused.set(id, (fused.get(id) ?? 0) + list.weight * s);
  }
  return [...fused].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || b.id - a.id);
}
