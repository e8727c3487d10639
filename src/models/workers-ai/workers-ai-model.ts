/**
 * The production SmallModel (docs/design.md, "Models"): each task is a JSON call to a Workers AI text model,
 * shaped for the model's family (request-shapes.ts), parsed with the task's zod schema and checked
 * by validate.ts. Inputs larger than one call are cut by the planner (workers-ai-planner.ts) into
 * windows and batches that fit the model's context window and output cap; a request the estimate
 * says cannot fit is refused before it is sent (`context_exceeded`, never retried). Calls go
 * through the agent's request budget (throttled-ai.ts). Any failure throws; retrying and falling
 * back to the local model are ResilientModel's job, so this class stays an adapter.
 * The model name comes from configuration (AI_TEXT_MODEL) and selects its row in model-profiles.ts.
 */
import type { z } from "zod";
import type { RelationName } from "../../vocabulary/relations";
import { codePointLength, sliceCodePoints } from "../../text/code-points";
import { slicesOf } from "../call-planner";
import { systemClock } from "../rate/clock";
import { RequestBudget } from "../rate/request-budget";
import type {
  CallContext,
  ConflictPair,
  ConflictVerdict,
  EntityPair,
  Extraction,
  ModelMessage,
  ModelOperation,
  RelationRequest,
  SegmentDraft,
  SmallModel,
  WindowDigest,
} from "../types";
import { joinWindowDigests } from "../digest";
import { buildDigestMessages, buildDigestsMessages, digestAnswerSchema, digestsAnswerSchema, type DigestAnswer } from "./prompts/digest";
import { joinWindowSegments } from "../window-join";
import { jsonSchemaOf, parseAnswer, type AiBinding, type ChatMessage } from "./ai-client";
import { textModelProfile, type TextModelProfile } from "./model-profiles";
import { buildCompressMessages, compressAnswerSchema } from "./prompts/compress";
import {
  buildSameEntitiesMessages,
  SAME_ENTITIES_BATCH_SIZE,
  sameEntitiesAnswerSchema,
  validateSameEntities,
} from "./prompts/same-entities";
import { buildConflictsMessages, conflictsAnswerSchema, validateConflictVerdicts } from "./prompts/conflicts";
import { buildExtractMessages, extractAnswerSchema } from "./prompts/extract";
import { buildQueryKeywordsMessages, queryKeywordsAnswerSchema } from "./prompts/query-keywords";
import { buildRelationsMessages, relationsAnswerSchema } from "./prompts/relations";
import { buildSegmentMessages, segmentAnswerSchema } from "./prompts/segment";
import { buildSummarizeMessages, summarizeAnswerSchema } from "./prompts/summarize";
import { requestInputs } from "./request-shapes";
import { ThrottledAi, type ThrottleOptions } from "./throttled-ai";
import { tokenWeight } from "../../text/token-estimate";
import { loadTaggersFor } from "../../language/tagging/tagged-words";
import { mayConflict } from "../../language/conflicts/judge";
import { ParseCache } from "../../language/conflicts/parse";
import {
  validateCompression,
  validateExtractions,
  validateQueryKeywords,
  validateRelations,
  validateSegments,
  validateSummary,
} from "./validate";
import { WorkersAiError } from "./workers-ai-error";
import { chatTokens, WorkersAiPlanner } from "./workers-ai-planner";

/** One agent's text requests per minute when nothing is configured (the account allows 300, shared). */
export const DEFAULT_REQUESTS_PER_MINUTE = 120;

/**
 * Longest one call may wait for the request budget or after 429 answers. Remember work runs from
 * the queue with nobody waiting on the HTTP side, so it waits out several per-minute windows
 * rather than degrade to the local model; compression blocks the queue, so it waits one window at
 * most; a recall has a caller waiting, so its keywords never wait (the local keywords answer).
 */
export const RATE_LIMIT_WAIT_MS: Readonly<Record<ModelOperation, number>> = {
  segment: 5 * 60_000,
  extract: 5 * 60_000,
  nameRelations: 5 * 60_000,
  compress: 60_000,
  summarize: 5 * 60_000,
  queryKeywords: 0,
  // Conflict checks run inside a remember, like extraction: nobody waits on the HTTP side.
  judgeConflicts: 5 * 60_000,
  sameEntities: 5 * 60_000,
  digest: 5 * 60_000,
};

export interface WorkersAiModelOptions {
  /** A Workers AI text model in TEXT_MODEL_PROFILES, e.g. the AI_TEXT_MODEL var. */
  model: string;
  /** The model's limits and request family; default: its row in TEXT_MODEL_PROFILES. */
  profile?: TextModelProfile;
  /** The agent runtime's request budget; default: its own, DEFAULT_REQUESTS_PER_MINUTE on the system clock. */
  throttle?: ThrottleOptions;
  /** Overrides of RATE_LIMIT_WAIT_MS. */
  maxWaitMs?: Partial<Record<ModelOperation, number>>;
}

export class WorkersAiModel implements SmallModel {
  readonly name: string;
  readonly planner: WorkersAiPlanner;
  readonly profile: TextModelProfile;
  private readonly model: string;
  private readonly ai: ThrottledAi;
  private readonly maxWaitMs: Readonly<Record<ModelOperation, number>>;
  /** Parsed texts of the classical conflict filter; the instance is the agent's own. */
  private readonly conflictParses = new ParseCache();

  constructor(ai: AiBinding, options: WorkersAiModelOptions) {
    if (options.model.trim() === "") throw new RangeError("a Workers AI text model name is required");
    this.model = options.model;
    this.name = `workers-ai:${options.model}`;
    this.profile = options.profile ?? textModelProfile(options.model);
    this.planner = new WorkersAiPlanner(this.profile);
    const throttle = options.throttle ?? {
      budget: new RequestBudget({ requestsPerWindow: DEFAULT_REQUESTS_PER_MINUTE, windowMs: 60_000, clock: systemClock }),
      clock: systemClock,
    };
    this.ai = new ThrottledAi(ai, throttle);
    this.maxWaitMs = { ...RATE_LIMIT_WAIT_MS, ...options.maxWaitMs };
  }

  /** Window by window (the planner's), joined; one call per window that has visible text. */
  async segment(messages: ModelMessage[], ctx?: CallContext): Promise<SegmentDraft[]> {
    const windows = this.planner.segmentWindows(messages);
    const results: SegmentDraft[][] = [];
    for (const window of windows) results.push(await this.segmentWindow(window.messages, ctx));
    return joinWindowSegments(windows, results);
  }

  /**
   * One call per window (the planner's digest windows): segments, their extractions and the
   * summary, checked by the separate tasks' validators (prompts/digest.ts).
   */
  async digest(messages: ModelMessage[], summaryMax: number, ctx?: CallContext): Promise<WindowDigest> {
    const windows = this.planner.digestWindows(messages);
    const results: WindowDigest[] = [];
    for (const window of windows) results.push(await this.digestWindow(window.messages, summaryMax, ctx));
    return joinWindowDigests(windows, results, summaryMax);
  }

  /**
   * Conversations that each fit one window are packed, in order, into shared calls while the
   * packed messages still fit one window; a conversation larger than a window is digested alone.
   */
  async digestMany(conversations: ModelMessage[][], summaryMax: number, ctx?: CallContext): Promise<WindowDigest[]> {
    const out: WindowDigest[] = [];
    let group: ModelMessage[][] = [];
    const flush = async (): Promise<void> => {
      if (group.length === 1) out.push(await this.digest(group[0] ?? [], summaryMax, ctx));
      else if (group.length > 1) out.push(...(await this.digestGroup(group, summaryMax, ctx)));
      group = [];
    };
    for (const conversation of conversations) {
      if (this.planner.digestWindows(conversation).length > 1) {
        await flush();
        out.push(await this.digest(conversation, summaryMax, ctx));
        continue;
      }
      if (group.length > 0 && this.planner.digestWindows([...group, conversation].flat()).length > 1) await flush();
      group.push(conversation);
    }
    await flush();
    return out;
  }

  private async digestGroup(conversations: ModelMessage[][], summaryMax: number, ctx?: CallContext): Promise<WindowDigest[]> {
    const max = Math.floor(summaryMax);
    const answer = await this.ask("digest", "window_digests", buildDigestsMessages(conversations, max), digestsAnswerSchema, ctx);
    if (answer.conversations.length !== conversations.length) {
      throw new WorkersAiError("invalid_answer", `expected ${conversations.length} digests, got ${answer.conversations.length}`);
    }
    return conversations.map((messages, k) => this.checkedDigest(messages, answer.conversations[k] ?? { segments: [], summary: "" }, max));
  }

  private async digestWindow(messages: ModelMessage[], summaryMax: number, ctx?: CallContext): Promise<WindowDigest> {
    if (messages.every((m) => m.content.trim() === "")) return { segments: [], extractions: [], summary: "" };
    const max = Math.floor(summaryMax);
    const answer = await this.ask("digest", "window_digest", buildDigestMessages(messages, max), digestAnswerSchema, ctx);
    return this.checkedDigest(messages, answer, max);
  }

  /** A digest answer checked by the separate tasks' validators. */
  private checkedDigest(messages: ModelMessage[], answer: DigestAnswer, max: number): WindowDigest {
    if (messages.every((m) => m.content.trim() === "")) return { segments: [], extractions: [], summary: "" };
    const segments = validateSegments(
      messages,
      answer.segments.map((s) => ({ text: s.text, messageIndexes: s.messageIndexes })),
    );
    // validateSegments keeps the answer's segments one for one (it checks, it does not re-cut).
    const extractions = validateExtractions(answer.segments, segments.length);
    // A window of greetings may have nothing to summarize: no episode summary, as locally.
    const summary = answer.summary.trim() === "" ? "" : validateSummary(answer.summary, max);
    return { segments, extractions, summary };
  }

  async extract(texts: string[], ctx?: CallContext): Promise<Extraction[]> {
    const out: Extraction[] = [];
    for (const batch of slicesOf(texts, this.planner.extractBatches(texts))) {
      const answer = await this.ask("extract", "extractions", buildExtractMessages(batch), extractAnswerSchema, ctx);
      out.push(...validateExtractions(answer.items, batch.length));
    }
    return out;
  }

  async nameRelations(requests: RelationRequest[], ctx?: CallContext): Promise<RelationName[]> {
    const out: RelationName[] = [];
    for (const batch of slicesOf(requests, this.planner.relationBatches(requests))) {
      const answer = await this.ask("nameRelations", "relations", buildRelationsMessages(batch), relationsAnswerSchema, ctx);
      out.push(...validateRelations(answer.relations, batch.length));
    }
    return out;
  }

  /**
   * A text that already fits is returned as is (no call); a target below one code point leaves
   * only the empty text, as in the local model. Otherwise the answer must fit the target, and a
   * target whose answer could not fit max_tokens is refused before the call.
   */
  async compress(text: string, target: number, ctx?: CallContext): Promise<string> {
    if (Number.isNaN(target)) throw new RangeError("compress target must be a number");
    const limit = Math.floor(target);
    if (codePointLength(text) <= limit) return text;
    if (limit < 1 || text.trim() === "") return "";
    const longest = tokenWeight(JSON.stringify({ text: sliceCodePoints(text, 0, limit) }));
    if (!this.planner.answerFits(longest)) {
      throw new WorkersAiError(
        "context_exceeded",
        `${this.model}: a ${limit}-character answer may exceed max_tokens ${this.profile.maxOutputTokens}`,
      );
    }
    const answer = await this.ask("compress", "compression", buildCompressMessages(text, limit), compressAnswerSchema, ctx);
    return validateCompression(answer.text, limit);
  }

  /**
   * Only the pairs the classical filter leaves open (mayConflict: both state something about a
   * subject they can share) are asked, in batches the planner sizes (at most CONFLICT_BATCH_SIZE), one call each; the
   * others are unrelated without a call.
   */
  async judgeConflicts(pairs: ConflictPair[], ctx?: CallContext): Promise<ConflictVerdict[]> {
    await loadTaggersFor(pairs.flatMap((p) => [p.earlier, p.later]));
    const open = pairs.map((p) => mayConflict(p, this.conflictParses));
    const asked = pairs.filter((_p, i) => open[i]);
    const verdicts: ConflictVerdict[] = [];
    for (const batch of slicesOf(asked, this.planner.conflictBatches(asked))) {
      const answer = await this.ask("judgeConflicts", "conflict_verdicts", buildConflictsMessages(batch), conflictsAnswerSchema, ctx);
      verdicts.push(...validateConflictVerdicts(answer.verdicts, batch.length));
    }
    let next = 0;
    return open.map((isOpen) => (isOpen ? (verdicts[next++] ?? "unrelated") : "unrelated"));
  }

  /** Batches of SAME_ENTITIES_BATCH_SIZE pairs, one call each. */
  async sameEntities(pairs: EntityPair[], ctx?: CallContext): Promise<boolean[]> {
    const out: boolean[] = [];
    for (let at = 0; at < pairs.length; at += SAME_ENTITIES_BATCH_SIZE) {
      const batch = pairs.slice(at, at + SAME_ENTITIES_BATCH_SIZE);
      const answer = await this.ask("sameEntities", "same_entities", buildSameEntitiesMessages(batch), sameEntitiesAnswerSchema, ctx);
      out.push(...validateSameEntities(answer.same, batch.length));
    }
    return out;
  }

  async summarize(texts: string[], maxLength: number, ctx?: CallContext): Promise<string> {
    if (texts.every((t) => t.trim() === "")) return "";
    const max = Math.floor(maxLength);
    const answer = await this.ask("summarize", "summary", buildSummarizeMessages(texts, max), summarizeAnswerSchema, ctx);
    return validateSummary(answer.summary, max);
  }

  async queryKeywords(query: string, ctx?: CallContext): Promise<string[]> {
    if (query.trim() === "") return [];
    const answer = await this.ask("queryKeywords", "query_keywords", buildQueryKeywordsMessages(query), queryKeywordsAnswerSchema, ctx);
    return validateQueryKeywords(answer.keywords);
  }

  private async segmentWindow(messages: ModelMessage[], ctx?: CallContext): Promise<SegmentDraft[]> {
    if (messages.every((m) => m.content.trim() === "")) return [];
    const answer = await this.ask("segment", "segments", buildSegmentMessages(messages), segmentAnswerSchema, ctx);
    return validateSegments(messages, answer.segments);
  }

  /** One call: refused before sending when it cannot fit, else sent through the budget and parsed. */
  private async ask<S extends z.ZodType>(
    operation: ModelOperation,
    name: string,
    messages: ChatMessage[],
    schema: S,
    ctx: CallContext | undefined,
  ): Promise<z.output<S>> {
    if (!this.planner.fits(messages)) {
      throw new WorkersAiError(
        "context_exceeded",
        `${this.model}: about ${chatTokens(messages)} input tokens plus max_tokens ${this.profile.maxOutputTokens} exceed the context window of ${this.profile.contextTokens}`,
      );
    }
    const inputs = requestInputs(this.profile, { name, messages, schema: jsonSchemaOf(schema), maxTokens: this.profile.maxOutputTokens });
    const raw = await this.ai.run(this.model, inputs, { maxWaitMs: this.maxWaitMs[operation], onWait: (ms) => ctx?.waited?.(ms) });
    return parseAnswer(raw, schema);
  }
}
