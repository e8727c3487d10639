/**
 * Embeddings asked ahead of their turn (docs/design.md, "Model economy"). A remember's commit embeds
 * its new nodes before it is done; with a remote embedder that is a call of its own in the write
 * path. The texts a queued remember will embed are known once its digest has come (each segment
 * as `speaker: text`, its entities' names, the episode summary), so they are asked ahead, several
 * remembers in one call, and the commit finds their vectors here. Only vectors are kept, in memory,
 * by text: the same text always has the same vector, and a text that was not foreseen is embedded
 * in its turn, as before. An eviction or crash loses nothing but the vectors.
 */
import type { Embedder } from "../models/types";

/** Vectors kept (a remember embeds a dozen texts; 20 queued remembers are foreseen). */
const KEPT_VECTORS = 2048;

export class EmbeddingsAhead implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  /** Oldest first (a Map keeps insertion order): past KEPT_VECTORS the oldest go. */
  private readonly kept = new Map<string, Promise<Float32Array | undefined>>();

  constructor(private readonly embedder: Embedder) {
    this.name = embedder.name;
    this.dimensions = embedder.dimensions;
  }

  /** Vectors asked ahead are used (and forgotten); the others are embedded now, in one call. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const kept = await Promise.all(texts.map((t) => this.kept.get(t) ?? Promise.resolve(undefined)));
    const missing = [...new Set(texts.filter((_t, i) => kept[i] === undefined))];
    const fresh = new Map<string, Float32Array | undefined>();
    if (missing.length > 0) {
      const vectors = await this.embedder.embed(missing);
      missing.forEach((t, i) => fresh.set(t, vectors[i]));
    }
    for (const t of texts) this.kept.delete(t);
    return texts.map((t, i) => {
      const vector = kept[i] ?? fresh.get(t);
      if (!vector) throw new Error("the embedder gave no vector for a text");
      return vector;
    });
  }

  /** Asks the vectors of `texts` not asked yet, in one call nobody waits for; a failure only loses them. */
  ahead(texts: readonly string[]): void {
    const todo = [...new Set(texts.filter((t) => t.trim() !== "" && !this.kept.has(t)))];
    if (todo.length === 0) return;
    const call = this.embedder.embed(todo).catch(() => undefined);
    todo.forEach((t, i) =>
      this.kept.set(
        t,
        call.then((v) => v?.[i]),
      ),
    );
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT_VECTORS) break;
      this.kept.delete(oldest);
    }
  }
}
