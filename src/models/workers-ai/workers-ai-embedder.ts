/**
 * The production Embedder (docs/design.md §8): a Workers AI embedding model, by default `@cf/baai/bge-m3`
 * (multilingual, 1024 dimensions). Facts from its model schema (cloudflare-docs
 * `src/content/workers-ai-models/bge-m3.json`): input `{ text: string[], truncate_inputs }` with at
 * most 100 texts of at least one character each; output `{ shape, data: number[][] }`.
 * Vectors are checked and L2-normalised here, because the vector index compares them by cosine
 * and a wrong length would otherwise surface only as a failed upsert far from its cause.
 */
import { z } from "zod";
import type { Embedder } from "../types";
import { WorkersAiError, type AiBinding } from "./ai-client";

/** bge-m3's per-request limit (`maxItems: 100` in its input schema). */
export const EMBEDDING_BATCH_SIZE = 100;
/** bge-m3's vector length; must match the Vectorize index. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 1024;

export interface WorkersAiEmbedderOptions {
  /** A Workers AI embedding model, e.g. the AI_EMBEDDING_MODEL var. */
  model: string;
  /** Expected vector length; default DEFAULT_EMBEDDING_DIMENSIONS. */
  dimensions?: number;
}

const EMBEDDING_ANSWER = z.object({ data: z.array(z.array(z.number())) });

export class WorkersAiEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  private readonly model: string;

  constructor(
    private readonly ai: AiBinding,
    options: WorkersAiEmbedderOptions,
  ) {
    if (options.model.trim() === "") throw new RangeError("a Workers AI embedding model name is required");
    const dimensions = options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
    this.model = options.model;
    this.dimensions = dimensions;
    this.name = `workers-ai:${options.model}`;
  }

  /**
   * One unit vector per text, in order, in batches of at most EMBEDDING_BATCH_SIZE. The empty text
   * (refused by the model) gets the zero vector without a call, as in the local embedder.
   */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    const pending = texts.flatMap((text, index) => (text === "" ? [] : [{ text, index }]));
    for (let start = 0; start < pending.length; start += EMBEDDING_BATCH_SIZE) {
      const batch = pending.slice(start, start + EMBEDDING_BATCH_SIZE);
      const vectors = await this.embedBatch(batch.map((p) => p.text));
      batch.forEach((p, i) => {
        const v = vectors[i];
        if (v !== undefined) out[p.index] = v;
      });
    }
    return out;
  }

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    let raw: unknown;
    try {
      raw = await this.ai.run(this.model, { text: texts, truncate_inputs: true });
    } catch (err) {
      throw new WorkersAiError("call_failed", `${this.model}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const parsed = EMBEDDING_ANSWER.safeParse(raw);
    if (!parsed.success) throw new WorkersAiError("schema_mismatch", "the embedding answer has no data", { cause: parsed.error });
    const data = parsed.data.data;
    if (data.length !== texts.length) throw new WorkersAiError("invalid_answer", `expected ${texts.length} embeddings, got ${data.length}`);
    return data.map((vector, i) => {
      if (vector.length !== this.dimensions) {
        throw new WorkersAiError("invalid_answer", `embedding ${i} has ${vector.length} dimensions, expected ${this.dimensions}`);
      }
      if (!vector.every(Number.isFinite)) throw new WorkersAiError("invalid_answer", `embedding ${i} is not finite`);
      return unit(vector);
    });
  }
}

/** `v / |v|` as a Float32Array; the zero vector stays zero. */
function unit(v: readonly number[]): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const out = Float32Array.from(v);
  if (sum === 0) return out;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * inv;
  return out;
}
