/**
 * The embeddings of recent queries, per agent runtime: a recall or search embeds its query (the
 * only model call of the read path), and agents repeat their queries, so the vector of a query
 * already seen is reused instead of asking the embedder again. Bounded, most recently used kept.
 * Only successful answers are kept: a failed call is asked again next time.
 */
import type { Embedder } from "./types";

/** Queries whose vectors are kept (1,024 dimensions × 4 bytes each: 2 MiB at most with bge-m3). */
export const QUERY_VECTORS_KEPT = 512;

export class QueryVectors {
  private readonly kept = new Map<string, Float32Array>();

  constructor(
    private readonly embedder: Embedder,
    private readonly capacity = QUERY_VECTORS_KEPT,
  ) {}

  async vector(query: string): Promise<Float32Array | undefined> {
    const hit = this.kept.get(query);
    if (hit !== undefined) {
      this.kept.delete(query);
      this.kept.set(query, hit);
      return hit;
    }
    const [vector] = await this.embedder.embed([query]);
    if (vector === undefined) return undefined;
    this.kept.set(query, vector);
    if (this.kept.size > this.capacity) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
    return vector;
  }
}
