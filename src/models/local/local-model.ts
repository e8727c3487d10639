/**
 * The built-in deterministic model (docs/design.md, "Models"): used by every local run, test and benchmark, where
 * Workers AI and Vectorize cannot be reached. Pure functions of their input (a cache of parsed texts
 * aside, which changes no answer): no randomness, no
 * clock, no network; Chinese and English alike.
 */
import type { RelationName } from "../../vocabulary/relations";
import type {
  ConflictPair,
  ConflictVerdict,
  Embedder,
  EntityPair,
  Extraction,
  ModelMessage,
  RelationRequest,
  SegmentDraft,
  SmallModel,
} from "../types";
import { judgeConflict } from "../../language/conflicts/judge";
import { ParseCache } from "../../language/conflicts/parse";
import { compressText, summarizeText } from "./local-compressor";
import { EMBEDDING_DIMENSIONS, embedText } from "./local-embedder";
import { sameEntity } from "../../language/entities/initialisms";
import { extractOne } from "./local-extractor";
import { LineTagMemo } from "../../language/tagging/tag-memo";
import { mentionRelations } from "../../language/entities/mentions";
import { queryKeywords } from "../../language/salience/query-keywords";
import { segmentMessages } from "./local-segmenter";
import { loadTaggersFor } from "../../language/tagging/tagged-words";

export class LocalModel implements SmallModel {
  readonly name = "local";
  /** Tagged lines, shared by every task below; the instance is the agent's own (agent-state.ts). */
  private readonly tags = new LineTagMemo();
  /** Parsed texts of the conflict judgement. */
  private readonly conflictParses = new ParseCache(this.tags);

  async segment(messages: ModelMessage[]): Promise<SegmentDraft[]> {
    return segmentMessages(messages);
  }

  async extract(texts: string[]): Promise<Extraction[]> {
    await loadTaggersFor(texts);
    return texts.map((t) => extractOne(t, this.tags));
  }

  async nameRelations(requests: RelationRequest[]): Promise<RelationName[]> {
    return mentionRelations(requests);
  }

  async compress(text: string, target: number): Promise<string> {
    await loadTaggersFor([text]);
    return compressText(text, target, this.tags);
  }

  /** Extractive: the sentences that carry the most keyword weight, in order, within the bound. */
  async summarize(texts: string[], maxLength: number): Promise<string> {
    await loadTaggersFor(texts);
    return summarizeText(texts.join("\n"), maxLength, this.tags);
  }

  async queryKeywords(query: string): Promise<string[]> {
    await loadTaggersFor([query]);
    return queryKeywords(query, this.tags);
  }

  async judgeConflicts(pairs: ConflictPair[]): Promise<ConflictVerdict[]> {
    await loadTaggersFor(pairs.flatMap((p) => [p.earlier, p.later]));
    return pairs.map((pair) => judgeConflict(pair, this.conflictParses));
  }

  async sameEntities(pairs: EntityPair[]): Promise<boolean[]> {
    return pairs.map(sameEntity);
  }
}

export interface LocalEmbedderOptions {
  /** Vector length; must match the (local) vector index. Default EMBEDDING_DIMENSIONS (256). */
  dimensions?: number;
}

export class LocalEmbedder implements Embedder {
  readonly name = "local-hash";
  readonly dimensions: number;

  constructor(options: LocalEmbedderOptions = {}) {
    const dimensions = options.dimensions ?? EMBEDDING_DIMENSIONS;
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
    }
    this.dimensions = dimensions;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => embedText(t, this.dimensions));
  }
}
