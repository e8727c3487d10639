/**
 * A SmallModel that retries its primary provider (RetryPolicy) and, when one is configured, falls
 * back to a second provider (the local model behind Workers AI). Large inputs are cut first as the
 * primary's planner says (call-planner.ts), and each window or batch is retried and falls back on
 * its own: a failure late in a long remember costs that window, not every paid call before it.
 * Failures, fallbacks and rate-limit waits are reported to `events` so they show in the agent's
 * stats. Without a fallback the final error is thrown and the caller degrades (a compression
 * keeps its content; a remember task is retried).
 */
import type { RelationName } from "../vocabulary/relations";
import { slicesOf, wholeWindow, type SegmentWindow } from "./call-planner";
import { isRetryable } from "./model-error";
import { withRetries, type RetryPolicy } from "./retry";
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
} from "./types";
import { digestOf, joinWindowDigests } from "./digest";
import { joinWindowSegments } from "./window-join";

export type { ModelOperation } from "./types";

export interface ModelEvents {
  /** The primary provider failed one call: every attempt, or the first when retrying could not help. */
  failed(operation: ModelOperation, error: unknown): void;
  /** The fallback provider answered instead. */
  fellBack(operation: ModelOperation): void;
  /** A call waited `ms` for the request budget or after a 429 (waiting is not a failure). */
  rateLimited?(operation: ModelOperation, ms: number): void;
  /** The primary's error could not change on retry (context exceeded, invalid answer, wait budget spent): no retry was made. */
  notRetried?(operation: ModelOperation, error: unknown): void;
}

export class ResilientModel implements SmallModel {
  readonly name: string;

  constructor(
    private readonly primary: SmallModel,
    private readonly fallback: SmallModel | undefined,
    private readonly policy: RetryPolicy,
    private readonly events: ModelEvents,
  ) {
    this.name = fallback ? `${primary.name}+${fallback.name}` : primary.name;
  }

  /** Window by window (the primary's planner), each retried and falling back on its own. */
  async digest(messages: ModelMessage[], summaryMax: number): Promise<WindowDigest> {
    const planner = this.primary.planner;
    const windows: SegmentWindow[] = (planner?.digestWindows ?? planner?.segmentWindows)?.call(planner, messages) ?? wholeWindow(messages);
    const results: WindowDigest[] = [];
    for (const window of windows) results.push(await this.call("digest", (m, ctx) => digestOf(m, window.messages, summaryMax, ctx)));
    return joinWindowDigests(windows, results, summaryMax);
  }

  /**
   * Several conversations: one shared call where the primary shares calls (digestMany), falling
   * back as a whole to the local model's digests; otherwise one digest each.
   */
  async digestMany(conversations: ModelMessage[][], summaryMax: number): Promise<WindowDigest[]> {
    const primary = this.primary;
    if (!primary.digestMany) {
      const out: WindowDigest[] = [];
      for (const messages of conversations) out.push(await this.digest(messages, summaryMax));
      return out;
    }
    return this.call("digest", (m, ctx) =>
      m.digestMany
        ? m.digestMany(conversations, summaryMax, ctx)
        : Promise.all(conversations.map((messages) => digestOf(m, messages, summaryMax, ctx))),
    );
  }

  /** Whether the primary provider shares calls between conversations (worth digesting ahead). */
  get sharesCalls(): boolean {
    return this.primary.digestMany !== undefined;
  }

  async segment(messages: ModelMessage[]): Promise<SegmentDraft[]> {
    const windows: SegmentWindow[] = this.primary.planner?.segmentWindows(messages) ?? wholeWindow(messages);
    const results: SegmentDraft[][] = [];
    for (const window of windows) results.push(await this.call("segment", (m, ctx) => m.segment(window.messages, ctx)));
    return joinWindowSegments(windows, results);
  }

  async extract(texts: string[]): Promise<Extraction[]> {
    const sizes = this.primary.planner?.extractBatches(texts) ?? [texts.length];
    const out: Extraction[] = [];
    for (const batch of slicesOf(texts, sizes)) out.push(...(await this.call("extract", (m, ctx) => m.extract(batch, ctx))));
    return out;
  }

  async nameRelations(requests: RelationRequest[]): Promise<RelationName[]> {
    const sizes = this.primary.planner?.relationBatches(requests) ?? [requests.length];
    const out: RelationName[] = [];
    for (const batch of slicesOf(requests, sizes)) out.push(...(await this.call("nameRelations", (m, ctx) => m.nameRelations(batch, ctx))));
    return out;
  }

  compress(text: string, target: number): Promise<string> {
    return this.call("compress", (m, ctx) => m.compress(text, target, ctx));
  }

  summarize(texts: string[], maxLength: number): Promise<string> {
    return this.call("summarize", (m, ctx) => m.summarize(texts, maxLength, ctx));
  }

  queryKeywords(query: string): Promise<string[]> {
    return this.call("queryKeywords", (m, ctx) => m.queryKeywords(query, ctx));
  }

  judgeConflicts(pairs: ConflictPair[]): Promise<ConflictVerdict[]> {
    if (pairs.length === 0) return Promise.resolve([]);
    return this.call("judgeConflicts", (m, ctx) => m.judgeConflicts(pairs, ctx));
  }

  sameEntities(pairs: EntityPair[]): Promise<boolean[]> {
    if (pairs.length === 0) return Promise.resolve([]);
    return this.call("sameEntities", (m, ctx) => m.sameEntities(pairs, ctx));
  }

  private async call<T>(operation: ModelOperation, run: (model: SmallModel, ctx: CallContext) => Promise<T>): Promise<T> {
    const ctx: CallContext = { waited: (ms) => this.events.rateLimited?.(operation, ms) };
    try {
      return await withRetries(() => run(this.primary, ctx), this.policy);
    } catch (err) {
      if (!isRetryable(err)) this.events.notRetried?.(operation, err);
      this.events.failed(operation, err);
      if (!this.fallback) throw err;
      this.events.fellBack(operation);
      return run(this.fallback, {});
    }
  }
}
