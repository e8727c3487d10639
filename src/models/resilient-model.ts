/**
 * A SmallModel that retries its primary provider (RetryPolicy) and, when one is configured, falls
 * back to a second provider (the local model behind Workers AI). Failures and fallbacks are
 * reported to `events` so they show in the agent's stats. Without a fallback the final error is
 * thrown and the caller degrades (a compression keeps its content; a remember task is retried).
 */
import type { RelationName } from "../vocabulary/relations";
import { withRetries, type RetryPolicy } from "./retry";
import type { Extraction, ModelMessage, RelationRequest, SegmentDraft, SmallModel } from "./types";

export type ModelOperation = "segment" | "extract" | "nameRelations" | "compress" | "queryKeywords";

export interface ModelEvents {
  /** The primary provider failed every attempt of one call. */
  failed(operation: ModelOperation, error: unknown): void;
  /** The fallback provider answered instead. */
  fellBack(operation: ModelOperation): void;
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

  segment(messages: ModelMessage[]): Promise<SegmentDraft[]> {
    return this.call("segment", (m) => m.segment(messages));
  }

  extract(texts: string[]): Promise<Extraction[]> {
    return this.call("extract", (m) => m.extract(texts));
  }

  nameRelations(requests: RelationRequest[]): Promise<RelationName[]> {
    return this.call("nameRelations", (m) => m.nameRelations(requests));
  }

  compress(text: string, target: number): Promise<string> {
    return this.call("compress", (m) => m.compress(text, target));
  }

  queryKeywords(query: string): Promise<string[]> {
    return this.call("queryKeywords", (m) => m.queryKeywords(query));
  }

  private async call<T>(operation: ModelOperation, run: (model: SmallModel) => Promise<T>): Promise<T> {
    try {
      return await withRetries(() => run(this.primary), this.policy);
    } catch (err) {
      this.events.failed(operation, err);
      if (!this.fallback) throw err;
      this.events.fellBack(operation);
      return run(this.fallback);
    }
  }
}
