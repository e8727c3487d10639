/**
 * The production SmallModel (docs/design.md §8): each task is one JSON-mode call to a Workers AI text model,
 * parsed with the task's zod schema and checked by validate.ts. Any failure throws; retrying and
 * falling back to the local model are ResilientModel's job, so this class stays a pure adapter.
 * The model name comes from configuration (AI_TEXT_MODEL), never from code.
 */
import type { z } from "zod";
import type { RelationName } from "../../vocabulary/relations";
import { codePointLength } from "../../text/code-points";
import type { Extraction, ModelMessage, RelationRequest, SegmentDraft, SmallModel } from "../types";
import { runJson, type AiBinding, type ChatMessage } from "./ai-client";
import { buildCompressMessages, compressAnswerSchema } from "./prompts/compress";
import { buildExtractMessages, extractAnswerSchema } from "./prompts/extract";
import { buildQueryKeywordsMessages, queryKeywordsAnswerSchema } from "./prompts/query-keywords";
import { buildRelationsMessages, relationsAnswerSchema } from "./prompts/relations";
import { buildSegmentMessages, segmentAnswerSchema } from "./prompts/segment";
import { validateCompression, validateExtractions, validateQueryKeywords, validateRelations, validateSegments } from "./validate";

/**
 * Output budget per call. Segmentation repeats the whole submission verbatim plus JSON, so it is
 * the largest answer; Llama 3.3 on Workers AI defaults to 256 tokens, far too few for it.
 */
export const DEFAULT_MAX_TOKENS = 4096;

/**
 * Texts per extraction call. Sixteen segments of at most ~160 code points make an input of a few
 * thousand tokens and an answer well inside DEFAULT_MAX_TOKENS, while a typical remember (a
 * handful of segments) needs a single call.
 */
export const EXTRACT_BATCH_SIZE = 16;

/**
 * Pairs per relation call. A remember asks for segments × focus entities pairs (e.g. 5 × 8 = 40);
 * each answer item is one short word, so the input (segment texts) bounds the batch, as above.
 */
export const RELATIONS_BATCH_SIZE = 16;

export interface WorkersAiModelOptions {
  /** A Workers AI text-generation model that supports JSON mode, e.g. the AI_TEXT_MODEL var. */
  model: string;
  /** Output token budget per call; default DEFAULT_MAX_TOKENS. */
  maxTokens?: number;
}

export class WorkersAiModel implements SmallModel {
  readonly name: string;
  private readonly model: string;
  private readonly maxTokens: number;

  constructor(
    private readonly ai: AiBinding,
    options: WorkersAiModelOptions,
  ) {
    if (options.model.trim() === "") throw new RangeError("a Workers AI text model name is required");
    const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new RangeError(`maxTokens must be a positive integer, got ${maxTokens}`);
    this.model = options.model;
    this.maxTokens = maxTokens;
    this.name = `workers-ai:${options.model}`;
  }

  async segment(messages: ModelMessage[]): Promise<SegmentDraft[]> {
    if (messages.every((m) => m.content.trim() === "")) return [];
    const answer = await this.ask(buildSegmentMessages(messages), segmentAnswerSchema);
    return validateSegments(messages, answer.segments);
  }

  async extract(texts: string[]): Promise<Extraction[]> {
    return this.inBatches(texts, EXTRACT_BATCH_SIZE, async (batch) => {
      const answer = await this.ask(buildExtractMessages(batch), extractAnswerSchema);
      return validateExtractions(answer.items, batch.length);
    });
  }

  async nameRelations(requests: RelationRequest[]): Promise<RelationName[]> {
    return this.inBatches(requests, RELATIONS_BATCH_SIZE, async (batch) => {
      const answer = await this.ask(buildRelationsMessages(batch), relationsAnswerSchema);
      return validateRelations(answer.relations, batch.length);
    });
  }

  /**
   * A text that already fits is returned as is (no call); a target below one code point leaves
   * only the empty text, as in the local model. Otherwise the answer must fit the target.
   */
  async compress(text: string, target: number): Promise<string> {
    if (Number.isNaN(target)) throw new RangeError("compress target must be a number");
    const limit = Math.floor(target);
    if (codePointLength(text) <= limit) return text;
    if (limit < 1 || text.trim() === "") return "";
    const answer = await this.ask(buildCompressMessages(text, limit), compressAnswerSchema);
    return validateCompression(answer.text, limit);
  }

  async queryKeywords(query: string): Promise<string[]> {
    if (query.trim() === "") return [];
    const answer = await this.ask(buildQueryKeywordsMessages(query), queryKeywordsAnswerSchema);
    return validateQueryKeywords(answer.keywords);
  }

  private ask<S extends z.ZodType>(messages: ChatMessage[], schema: S): Promise<z.output<S>> {
    return runJson(this.ai, { model: this.model, messages, schema, maxTokens: this.maxTokens });
  }

  /**
   * Runs `call` on consecutive batches, one after another, and concatenates the answers in order.
   * Sequential on purpose: one remember rarely needs more than one batch, and parallel calls would
   * only compete for the account's rate limit. Any failing batch fails the whole call, so the retry
   * repeats it as one unit and the fallback answers for all items alike.
   */
  private async inBatches<T, R>(items: readonly T[], size: number, call: (batch: T[]) => Promise<R[]>): Promise<R[]> {
    const out: R[] = [];
    for (let start = 0; start < items.length; start += size) {
      out.push(...(await call(items.slice(start, start + size))));
    }
    return out;
  }
}
