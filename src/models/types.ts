/**
 * The small-model provider interface (docs/design.md, "Models"). Everything the memory needs from a model goes
 * through it: the built-in local model (src/models/local) for local runs, tests and benchmarks,
 * Workers AI in production. Implementations return well-formed answers or throw; callers retry.
 */
import type { ConflictVerdict } from "../vocabulary/conflict-verdicts";
import type { RelationName } from "../vocabulary/relations";
import type { MessageRole } from "../vocabulary/roles";

export type { MessageRole };

/** One submitted message, as the model sees it. `index` is its position in the submission. */
export interface ModelMessage {
  index: number;
  role: MessageRole;
  content: string;
  name?: string;
}

/** A semantically complete piece of the conversation (语义切割). */
export interface SegmentDraft {
  /**
   * The segment's text. A segment inside one message is a verbatim slice of it; a segment that
   * joins several short messages has one line per message, `name: text` when the message has a
   * name (else `role: text`).
   */
  text: string;
  /** Indexes (ascending) of the messages the segment came from. */
  messageIndexes: number[];
}

export interface Extraction {
  /** A short summary of the text, at most PHRASE_MAX_CODE_POINTS code points. */
  phrase: string;
  /** Nouns and pronouns naming things or domains, most salient first, deduplicated. */
  keywords: string[];
  /** Key entities, in display form (normalised later by `entityKey`), most salient first. */
  entities: string[];
}

export interface RelationRequest {
  segment: string;
  entity: string;
}

/**
 * Two memories that share an entity, to be classified (docs/design.md, "Memory operations", conflicts on write):
 * `earlier` was remembered before `later`. Texts carry the speaker's name first when one speaker
 * said them ("Alice: I moved to Berlin").
 */
export interface ConflictPair {
  earlier: string;
  later: string;
  /** The entities both are about (what made them a pair). */
  entities: string[];
}

export { CONFLICT_VERDICTS, type ConflictVerdict } from "../vocabulary/conflict-verdicts";

/**
 * A name just mentioned and an entity the agent already holds that it may be another name of
 * (docs/design.md, "Memory operations", entity resolution): "JavaScript" and the known "JS".
 */
export interface EntityPair {
  known: string;
  mentioned: string;
  /** The text the mention came from (what tells "JS" the language from "JS" a person's initials). */
  context: string;
}

/**
 * One window of a remember digested at once (docs/design.md, "Model economy"): its segments, one
 * extraction per segment (same order, same length), and what the window was about (the episode
 * summary; "" when there was nothing to say).
 */
export interface WindowDigest {
  segments: SegmentDraft[];
  extractions: Extraction[];
  summary: string;
}

/** The small-model tasks, as named in events and counters. */
export type ModelOperation =
  "segment" | "extract" | "nameRelations" | "compress" | "summarize" | "queryKeywords" | "judgeConflicts" | "sameEntities" | "digest";

/**
 * What a caller passes along with one call: a remote provider may wait for its request budget or
 * after a rate-limit answer, and reports each wait so it shows in the agent's stats. Local
 * providers never wait and ignore it.
 */
export interface CallContext {
  waited?(ms: number): void;
}

export interface SmallModel {
  readonly name: string;
  /**
   * How this provider wants large inputs cut into calls (context window, output limit). A caller
   * that retries or falls back per call (ResilientModel) uses it so one failing window costs one
   * window; providers without limits (the local model) have none.
   */
  readonly planner?: CallPlanner;
  /** Cuts the messages into semantically complete segments, in order, dropping no text. */
  segment(messages: ModelMessage[], ctx?: CallContext): Promise<SegmentDraft[]>;
  /** Extracts phrase, keywords and entities for each text (same order, same length). */
  extract(texts: string[], ctx?: CallContext): Promise<Extraction[]>;
  /** Names the relation of each segment to an entity, from the fixed vocabulary. */
  nameRelations(requests: RelationRequest[], ctx?: CallContext): Promise<RelationName[]>;
  /** Compresses `text` to at most `target` code points, keeping its core information. */
  compress(text: string, target: number, ctx?: CallContext): Promise<string>;
  /**
   * What a conversation (its segments, in order) was about, in its own language, in at most
   * `maxLength` code points (an episode's summary, docs/design.md, "Context for prompts").
   */
  summarize(texts: string[], maxLength: number, ctx?: CallContext): Promise<string>;
  /** Keywords of a free-text query, for recall and search. */
  queryKeywords(query: string, ctx?: CallContext): Promise<string[]>;
  /** Classifies each pair of memories (same order, same length). */
  judgeConflicts(pairs: ConflictPair[], ctx?: CallContext): Promise<ConflictVerdict[]>;
  /** Whether each mentioned name names the known entity (same order, same length). */
  sameEntities(pairs: EntityPair[], ctx?: CallContext): Promise<boolean[]>;
  /**
   * segment, extract and summarize of one window in one call (a remote provider's economy);
   * a provider without it is asked the three tasks in turn (digestByTasks).
   */
  digest?(messages: ModelMessage[], summaryMax: number, ctx?: CallContext): Promise<WindowDigest>;
  /**
   * The digests of several separate conversations (queued remembers), as few calls as their sizes
   * allow; present only on providers whose calls are worth sharing (a remote model).
   */
  digestMany?(conversations: ModelMessage[][], summaryMax: number, ctx?: CallContext): Promise<WindowDigest[]>;
  /**
   * The phrase and keywords of texts a compression just shortened: part of compressing a node, so
   * answered by whoever compresses (model_policy); a provider without it extracts.
   */
  extractCompressed?(texts: string[], ctx?: CallContext): Promise<Extraction[]>;
  /** An episode summary shortened by a compression: answered by whoever compresses (model_policy). */
  summarizeCompressed?(texts: string[], maxLength: number, ctx?: CallContext): Promise<string>;
}

export interface Embedder {
  readonly name: string;
  readonly dimensions: number;
  /** One vector per text, each of length `dimensions`. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export const PHRASE_MAX_CODE_POINTS = 20;

/**
 * One segmentation call: whole messages, or a part of one long message (same `index`, `content`
 * the verbatim part). Parts of one message are consecutive, so a message is split across two
 * windows at most at one boundary per window.
 */
export interface SegmentWindow {
  messages: ModelMessage[];
  /**
   * Set when the window's first message is the continuation of the previous window's last one:
   * the message index and the whitespace that separated the two parts in the original text, so
   * joined segments reproduce it exactly.
   */
  continuation?: { index: number; gap: string };
}

export interface CallPlanner {
  /** Windows in message order; their concatenated contents are the messages' visible text. */
  segmentWindows(messages: readonly ModelMessage[]): SegmentWindow[];
  /** Windows of a digest (segments, extractions and summary in one answer); default: segmentWindows. */
  digestWindows?(messages: readonly ModelMessage[]): SegmentWindow[];
  /** Sizes of consecutive extraction batches, summing to `texts.length`, none empty. */
  extractBatches(texts: readonly string[]): number[];
  /** Sizes of consecutive relation batches, summing to `requests.length`, none empty. */
  relationBatches(requests: readonly RelationRequest[]): number[];
}
