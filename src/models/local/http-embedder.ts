/**
 * An embedder served over HTTP by the quality benchmark, for local benchmark servers only (the
 * BENCH_EMBEDDER_URL var, which `bench:quality` passes to the `wrangler dev` it starts for its
 * semantic arm; never set in wrangler.toml or wrangler.local.toml). The hashed embedder sees only
 * words; this lets the benchmark check recall's fusion of keyword and vector entry points with an
 * embedder that has meaning, as production's has, without any model in the Worker
 * (docs/BENCHMARKS.md, "Quality benchmark").
 *
 * Protocol: POST `{ texts: string[] }` → `{ vectors: number[][] }`, one vector of `dimensions`
 * numbers per text, L2-normalised here (the index compares by cosine).
 */
import { z } from "zod";
import type { Embedder } from "../types";

const ANSWER = z.object({ vectors: z.array(z.array(z.number())) });

/** Its name, which src/config/retrieval.ts gives a fusion weight. */
export const BENCH_EMBEDDER_NAME = "bench-http";

export class HttpEmbedder implements Embedder {
  readonly name = BENCH_EMBEDDER_NAME;

  constructor(
    private readonly url: string,
    readonly dimensions: number,
  ) {
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const res = await fetch(this.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ texts }) });
    if (!res.ok) throw new Error(`bench embedder answered ${res.status}`);
    const answer = ANSWER.parse(await res.json());
    if (answer.vectors.length !== texts.length)
      throw new Error(`bench embedder gave ${answer.vectors.length} vectors for ${texts.length} texts`);
    return answer.vectors.map((v) => {
      if (v.length !== this.dimensions) throw new Error(`bench embedder gave ${v.length} dimensions, expected ${this.dimensions}`);
      const norm = Math.hypot(...v);
      return Float32Array.from(v, (x) => (norm > 0 ? x / norm : 0));
    });
  }
}
