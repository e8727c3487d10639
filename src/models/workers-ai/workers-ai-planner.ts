/**
 * Sizes every Workers AI call from the model's row in model-profiles.ts, with the conservative
 * token estimate of token-estimate.ts (docs/design.md, "Robustness promises": long inputs are cut into windows). Two limits
 * bind a call: Workers AI refuses a request whose input plus `max_tokens` exceeds the context
 * window (error 5021), and an answer stops at `max_tokens`. Segmentation repeats its input, so its
 * windows are bounded by the answer: text tokens × ANSWER_ECHO ≤ max_tokens × OUTPUT_HEADROOM.
 * Extraction and relation batches are bounded by their input and by a per-item answer estimate,
 * and by an item count that keeps the model accurate.
 */
import type { CallPlanner, SegmentWindow } from "../call-planner";
import { planSegmentWindows } from "../segment-windows";
import type { ConflictPair, ModelMessage, RelationRequest } from "../types";
import type { ChatMessage } from "./ai-client";
import type { TextModelProfile } from "./model-profiles";
import { buildConflictsMessages, CONFLICT_BATCH_SIZE } from "./prompts/conflicts";
import { buildExtractMessages } from "./prompts/extract";
import { buildRelationsMessages } from "./prompts/relations";
import { buildSegmentMessages, speakerOf } from "./prompts/segment";
import { tokenWeight } from "../../text/token-estimate";

/** Answer tokens per input text token in segmentation: the text again, plus quoting and keys. */
export const ANSWER_ECHO = 1.35;
/** Share of max_tokens an answer is planned to use: the estimate may be off, the answer may not. */
export const OUTPUT_HEADROOM = 0.85;
/** Tokens the chat template adds per message (role markers). */
const TEMPLATE_TOKENS_PER_MESSAGE = 8;
/** Answer tokens per extraction item: a 20-character phrase, keywords and entities, with keys. */
export const EXTRACT_ANSWER_TOKENS = 120;
/** Answer tokens per relation: one short name and its quotes. */
export const RELATION_ANSWER_TOKENS = 8;
/** Items per extraction call: sixteen keeps a typical remember in one call and the model accurate. */
export const EXTRACT_BATCH_SIZE = 16;
/**
 * Share of a segmentation window a digest window holds: its answer repeats the text (ANSWER_ECHO)
 * and adds an extraction (EXTRACT_ANSWER_TOKENS) per segment of a few sentences.
 */
export const DIGEST_WINDOW_SHARE = 0.5;
/** Answer tokens per conflict verdict: one word and its quotes. */
export const CONFLICT_ANSWER_TOKENS = 6;
/** Pairs per relation call (a remember asks for segments × focus entities). */
export const RELATIONS_BATCH_SIZE = 16;

/** Estimated input tokens of a chat request. */
export function chatTokens(messages: readonly ChatMessage[]): number {
  return Math.ceil(tokenWeight(JSON.stringify(messages)) + TEMPLATE_TOKENS_PER_MESSAGE * messages.length);
}

interface ItemCost {
  input: number;
  output: number;
}

export class WorkersAiPlanner implements CallPlanner {
  /** Text tokens one segmentation window may carry (its messages' contents plus overhead). */
  readonly segmentWindowTokens: number;
  private readonly extractInputRoom: number;
  private readonly relationInputRoom: number;
  private readonly conflictInputRoom: number;
  private readonly outputRoom: number;

  constructor(readonly profile: TextModelProfile) {
    this.outputRoom = Math.floor(profile.maxOutputTokens * OUTPUT_HEADROOM);
    const inputRoom = (prompt: readonly ChatMessage[]): number => profile.contextTokens - profile.maxOutputTokens - chatTokens(prompt);
    this.segmentWindowTokens = Math.floor(Math.min(inputRoom(buildSegmentMessages([])), this.outputRoom / ANSWER_ECHO));
    this.extractInputRoom = inputRoom(buildExtractMessages([]));
    this.relationInputRoom = inputRoom(buildRelationsMessages([]));
    this.conflictInputRoom = inputRoom(buildConflictsMessages([]));
    if (this.segmentWindowTokens < 200) throw new RangeError(`model limits leave only ${this.segmentWindowTokens} tokens per window`);
  }

  segmentWindows(messages: readonly ModelMessage[]): SegmentWindow[] {
    return planSegmentWindows(messages, {
      maxTokens: this.segmentWindowTokens,
      tokens: tokenWeight,
      // In the request: {"index":…,"speaker":…,"role":…,"content":…}; in the answer: a speaker
      // label and the index, both smaller once divided by ANSWER_ECHO.
      overhead: (m) => 20 + tokenWeight(JSON.stringify(speakerOf(m))),
    });
  }

  extractBatches(texts: readonly string[]): number[] {
    const costs = texts.map((t) => ({ input: tokenWeight(JSON.stringify(t)), output: EXTRACT_ANSWER_TOKENS }));
    return this.batches(costs, this.extractInputRoom, EXTRACT_BATCH_SIZE);
  }

  /**
   * Windows of a digest (prompts/digest.ts): the answer carries an extraction per segment on top
   * of the segments' text, so a window holds DIGEST_WINDOW_SHARE of a segmentation window.
   */
  digestWindows(messages: readonly ModelMessage[]): SegmentWindow[] {
    return planSegmentWindows(messages, {
      maxTokens: Math.floor(this.segmentWindowTokens * DIGEST_WINDOW_SHARE),
      tokens: tokenWeight,
      overhead: (m) => 20 + tokenWeight(JSON.stringify(speakerOf(m))),
    });
  }

  conflictBatches(pairs: readonly ConflictPair[]): number[] {
    const costs = pairs.map((p) => ({ input: tokenWeight(JSON.stringify(p)), output: CONFLICT_ANSWER_TOKENS }));
    return this.batches(costs, this.conflictInputRoom, CONFLICT_BATCH_SIZE);
  }

  relationBatches(requests: readonly RelationRequest[]): number[] {
    const costs = requests.map((r) => ({ input: tokenWeight(JSON.stringify(r)), output: RELATION_ANSWER_TOKENS }));
    return this.batches(costs, this.relationInputRoom, RELATIONS_BATCH_SIZE);
  }

  /** Whether a request of these messages leaves room for `max_tokens` in the context window. */
  fits(messages: readonly ChatMessage[]): boolean {
    return chatTokens(messages) + this.profile.maxOutputTokens <= this.profile.contextTokens;
  }

  /** Whether an answer of about `tokens` fits under max_tokens with the planned headroom. */
  answerFits(tokens: number): boolean {
    return tokens <= this.outputRoom;
  }

  /**
   * Greedy consecutive batches within the input room, the answer room and `maxItems`. An item too
   * large even alone gets a batch of its own: its call is refused before sending and that batch
   * alone falls back.
   */
  private batches(costs: readonly ItemCost[], inputRoom: number, maxItems: number): number[] {
    const sizes: number[] = [];
    let size = 0;
    let input = 0;
    let output = 0;
    for (const cost of costs) {
      if (size > 0 && (size >= maxItems || input + cost.input > inputRoom || output + cost.output > this.outputRoom)) {
        sizes.push(size);
        [size, input, output] = [0, 0, 0];
      }
      size += 1;
      input += cost.input;
      output += cost.output;
    }
    if (size > 0) sizes.push(size);
    return sizes;
  }
}
