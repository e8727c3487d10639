/**
 * Exact top-k selection for brute-force vector search: the dot product of unit vectors (= cosine)
 * and a bounded heap of the best hits. Shared by the local index and Vectorize's recent buffer.
 */
import type { VectorHit } from "./types";

/**
 * Dot product of `query` with the row of `matrix` at `offset` (= cosine: vectors are unit length),
 * summed in double precision over four lanes, lane j taking the dimensions d with d % 4 === j, and
 * returned as (lane0 + lane1) + (lane2 + lane3). The four independent sums run about twice as fast
 * as one running sum (no wait on the previous addition); every caller sums in this same order, so
 * the same vectors always give the same score, bit for bit.
 */
export function dotAt(query: Float32Array, matrix: Float32Array, offset: number): number {
  const n = query.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < n; d += 4) {
    const o = offset + d;
    s0 += (query[d] ?? 0) * (matrix[o] ?? 0);
    s1 += (query[d + 1] ?? 0) * (matrix[o + 1] ?? 0);
    s2 += (query[d + 2] ?? 0) * (matrix[o + 2] ?? 0);
    s3 += (query[d + 3] ?? 0) * (matrix[o + 3] ?? 0);
  }
  if (d < n) s0 += (query[d] ?? 0) * (matrix[offset + d] ?? 0);
  if (d + 1 < n) s1 += (query[d + 1] ?? 0) * (matrix[offset + d + 1] ?? 0);
  if (d + 2 < n) s2 += (query[d + 2] ?? 0) * (matrix[offset + d + 2] ?? 0);
  return s0 + s1 + (s2 + s3);
}

/** Ranking order: higher score first; equal scores rank the higher node id (the newer node) first. */
function ranksAbove(score: number, nodeId: number, otherScore: number, otherId: number): boolean {
  return score > otherScore || (score === otherScore && nodeId > otherId);
}

/**
 * The k best hits offered so far: a bounded min-heap whose root is the worst hit kept, so n offers
 * cost O(n log k), most rejected by one comparison with the root (no sort of all n scores).
 */
export class TopK {
  private readonly scores: number[] = [];
  private readonly ids: number[] = [];

  constructor(private readonly k: number) {}

  offer(nodeId: number, score: number): void {
    const size = this.scores.length;
    if (size < this.k) {
      this.scores.push(score);
      this.ids.push(nodeId);
      this.siftUp(size);
    } else if (size > 0 && ranksAbove(score, nodeId, this.scores[0] ?? 0, this.ids[0] ?? 0)) {
      this.scores[0] = score;
      this.ids[0] = nodeId;
      this.siftDown(0);
    }
  }

  /** The hits kept, best first. */
  results(): VectorHit[] {
    const hits = this.ids.map((nodeId, i) => ({ nodeId, score: this.scores[i] ?? 0 }));
    return hits.sort((a, b) => b.score - a.score || b.nodeId - a.nodeId);
  }

  private above(i: number, j: number): boolean {
    return ranksAbove(this.scores[i] ?? 0, this.ids[i] ?? 0, this.scores[j] ?? 0, this.ids[j] ?? 0);
  }

  private swap(i: number, j: number): void {
    const score = this.scores[i] ?? 0;
    const id = this.ids[i] ?? 0;
    this.scores[i] = this.scores[j] ?? 0;
    this.ids[i] = this.ids[j] ?? 0;
    this.scores[j] = score;
    this.ids[j] = id;
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(parent, i)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      let worst = i;
      if (left < this.scores.length && this.above(worst, left)) worst = left;
      if (left + 1 < this.scores.length && this.above(worst, left + 1)) worst = left + 1;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}
