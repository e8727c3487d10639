/**
 * Reciprocal-rank fusion (Cormack, Clarke & Büttcher, 2009): score(d) = Σ 1 / (k + rank(d)) over
 * the ranked lists that contain d (rank from 1). It needs no score calibration between BM25 and
 * cosine, which live on unrelated scales. k = 60 as in the paper.
 */
export const RRF_K = 60;

export interface Fused {
  id: number;
  score: number;
}

export function reciprocalRankFusion(lists: readonly (readonly number[])[], k: number = RRF_K): Fused[] {
  const scores = new Map<number, number>();
  for (const list of lists) {
    list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || b.id - a.id);
}
