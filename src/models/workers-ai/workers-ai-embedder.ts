/**
 * The production Embedder (docs/design.md, "Models"): a Workers AI embedding model, by default `@cf/baai/bge-m3`
 * (multilingual, 1024 dimensions). Facts from its model schema (bge-m3.json among
 * the Workers AI models of the cloudflare-docs repository): input `{ text: string[], truncate_inputs }` with at
 * most 100 texts of at least one character each; output `{ shape, data: number[][] }`.
 * Vectors are checked and L2-normalised here, because the vector index compares them by cosine
 * and a wrong length would otherwise surface only as a failed upsert far from its cause. Calls go
 * through the agent's embedding request budget (throttled-ai.ts): Workers AI limits text
 * embeddings to 3,000 requests per minute per account (platform/limits), ten times text generation.
 */
import { z } from "zod";
import { systemClock } from "../rate/clock";
import { RequestBudget } from "../rate/request-budget";
import type { Embedder } from "../types";
import type { AiBinding } from "./ai-client";
import { ThrottledAi, type ThrottleOptions } from "./throttled-ai";
import { WorkersAiError } from "./workers-ai-error";

/** bge-m3's per-request limit (`maxItems: 100` in its input schema). */
export const EMBEDDING_BATCH_SIZE = 100;
/** bge-m3's vector length; must match the Vectorize index. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 1024;
/** One agent's embedding requests per minute by default: ten times its text budget, as the account limits are. */
export const DEFAULT_EMBEDDING_REQUESTS_PER_MINUTE = 1_200;
/**
 * Longest an embedding call waits for its budget or after 429s. Embeddings serve both queued
 * indexing and a waiting search (the query vector), and a failed indexing call has its own retry
 * path (an `index` task), so the wait covers one capacity refusal (3040: a quarter window, at most
 * 18.75 s with jitter) but not a whole per-minute window.
 */
export const EMBEDDING_MAX_WAIT_MS = 20_000;

export interface WorkersAiEmbedderOptions {
  /** A Workers AI embedding model, e.g. the AI_EMBEDDING_MODEL var. */
  model: string;
  /** Expected vector length; default DEFAULT_EMBEDDING_DIMENSIONS. */
  dimensions?: number;
  /** The agent runtime's embedding budget; default: its own, DEFAULT_EMBEDDING_REQUESTS_PER_MINUTE. */
  throttle?: ThrottleOptions;
}

const EMBEDDING_ANSWER = z.object({ data: z.array(z.array(z.number())) });

export class WorkersAiEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  private readonly model: string;
  private readonly ai: ThrottledAi;

  constructor(ai: AiBinding, options: WorkersAiEmbedderOptions) {
    if (options.model.trim() === "") throw new RangeError("a Workers AI embedding model name is required");
    const dimensions = options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
    this.model = options.model;
    this.dimensions = dimensions;
    this.ai = new ThrottledAi(
      ai,
      options.throttle ?? {
        budget: new RequestBudget({ requestsPerWindow: DEFAULT_EMBEDDING_REQUESTS_PER_MINUTE, windowMs: 60_000, clock: systemClock }),
        clock: systemClock,
      },
    );
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
    const raw = await this.ai.run(this.model, { text: texts, truncate_inputs: true }, { maxWaitMs: EMBEDDING_MAX_WAIT_MS });
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
