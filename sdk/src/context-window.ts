/**
 * The context-window helper (seed 001 §9.1, docs/design.md §13): the memory does not decide when
 * to remember; the system that drives the model watches its context and, when a conversation
 * passes `thresholdRatio` (80%) of `contextMaxTokens`, hands the overflow to `remember`.
 *
 * `prepare(conversation)` takes the whole conversation so far (every turn, oldest first) and
 * returns the messages to send (system messages, then the most recent turns) and a block of
 * memories to inject, so that messages + block never pass the threshold. When they would, the
 * oldest turns not yet remembered are remembered and cut, down to `targetRatio` of the window (so
 * the next turns do not trigger again at once). Calling it again on the same conversation
 * remembers nothing new: the cut only moves forward, and every message is sent with a stable id
 * (its own `id`, or one derived from its position and content), which the memory never stores
 * twice, even across processes. `flush()` remembers what is left at the end of a conversation.
 *
 * A block below MIN_BLOCK_TOKENS holds no memory of ordinary length (docs/design.md, "The smallest
 * useful context block"), so a window whose block would be smaller, or that leaves no room for
 * messages beside its block, is refused with ContextWindowTooSmallError instead of silently
 * injecting nothing.
 */
import type { AgentOperations, GetContextInput, Message } from "./generated/operations.js";
import type { RequestOptions } from "./options.js";

/** What the window calls on its agent (an AgentClient). */
type ContextAgent = Pick<AgentOperations, "remember" | "recall" | "getContext">;
import { ContextWindowTooSmallError } from "./errors.js";
import { estimateTokens } from "./tokens.js";

/**
 * The smallest useful block, in tokens of the API's estimate: room for its heading and one memory
 * of median length (41 tokens for LoCoMo's English turns, 42 for MADial-Bench's Chinese ones) with
 * its speaker and two entity names under the block's frame line, in either language (97 tokens in
 * Chinese, 78 in English), with a little to spare. See docs/design.md, "The smallest useful context
 * block".
 */
export const MIN_BLOCK_TOKENS = 100;
/** The block's default share of the window (a tenth), and its default cap. */
const BLOCK_SHARE = 10;
const MAX_DEFAULT_BLOCK_TOKENS = 2000;

/** A chat message as applications hold them (OpenAI/Anthropic-like: role and text content). */
export interface ChatMessage {
  role: "user" | "assistant" | "system";
  content: string;
  /** Your stable id of the message; without one, the helper derives it from position and content. */
  id?: string;
  name?: string;
  timestamp?: number | string;
}

export interface ContextWindowOptions {
  /** The model's context window, in tokens. */
  contextMaxTokens: number;
  /** Remember and trim when messages + block pass this share of the window (default 0.8). */
  thresholdRatio?: number;
  /** After trimming, messages + block take at most this share (default 0.5; below thresholdRatio). */
  targetRatio?: number;
  /**
   * Tokens for the injected block (default: a tenth of the window, at most 2000; 0 injects nothing).
   * Otherwise at least MIN_BLOCK_TOKENS (100): a window whose tenth is smaller (below 1,000 tokens)
   * needs `blockTokens` given, or is refused.
   */
  blockTokens?: number;
  /** What to inject: the context block (default) or recall's text for the latest user message. */
  inject?: "context" | "recall";
  /** Locale of the injected text (zh default, or en). */
  locale?: "zh" | "en";
  /** Counts a text's tokens (default: the API's own deliberately high estimate). */
  countTokens?: (text: string) => number;
  /** Tokens a message costs besides its text (role, separators); default 4. */
  messageOverhead?: number;
  /** Prefix of derived message ids: one per conversation (default "cw"). */
  conversationId?: string;
  /** Request options of the helper's calls (signal, timeout). */
  request?: RequestOptions;
}

export interface PreparedContext {
  /** What to send to the model: the system messages, then the turns still in the window. */
  messages: ChatMessage[];
  /** The memories to inject (e.g. as a system message); "" when there is none. */
  block: string;
  /** Estimated tokens of `messages` plus `block`: never above the threshold unless the newest message alone is. */
  tokens: number;
  /** Messages remembered by this call (0 when nothing passed the threshold). */
  remembered: number;
  /** Tasks of this call's remember requests. */
  taskIds: string[];
}

/** The API's limit of messages per remember request. */
const MAX_MESSAGES_PER_REMEMBER = 500;

const FNV128_PRIME = 0x0000000001000000000000000000013bn;
const FNV128_OFFSET = 0x6c62272e07bb014262b821756295c58dn;
const MASK128 = (1n << 128n) - 1n;

/**
 * FNV-1a, 128 bits, of a text's UTF-8 bytes, as 32 hex digits: a stable, dependency-free
 * fingerprint that two different texts do not share in practice (32 bits made message ids of two
 * conversations collide: the second message was skipped as already held).
 */
export function fingerprint128(text: string): string {
  let hash = FNV128_OFFSET;
  for (const byte of new TextEncoder().encode(text)) hash = ((hash ^ BigInt(byte)) * FNV128_PRIME) & MASK128;
  return hash.toString(16).padStart(32, "0");
}

/** A batch's Idempotency-Key: a fingerprint of every message id in it (first and last alone let two batches meet). */
function batchKey(batch: readonly Message[]): string {
  return `cw-${batch.length}-${fingerprint128(batch.map((m) => m.id ?? "").join("\n"))}`;
}

export class ContextWindow {
  /** How many leading non-system messages of the conversation are remembered and cut. */
  private cut = 0;
  private readonly threshold: number;
  private readonly target: number;
  private readonly blockTokens: number;
  private readonly count: (text: string) => number;
  private readonly overhead: number;

  constructor(
    private readonly agent: ContextAgent,
    private readonly options: ContextWindowOptions,
  ) {
    const max = options.contextMaxTokens;
    if (!Number.isFinite(max) || max <= 0) throw new RangeError("contextMaxTokens must be a positive number");
    const ratio = options.thresholdRatio ?? 0.8;
    const targetRatio = options.targetRatio ?? Math.min(0.5, ratio);
    if (!(ratio > 0 && ratio <= 1)) throw new RangeError("thresholdRatio must be in (0, 1]");
    if (!(targetRatio > 0 && targetRatio <= ratio)) throw new RangeError("targetRatio must be in (0, thresholdRatio]");
    this.threshold = Math.floor(max * ratio);
    this.target = Math.floor(max * targetRatio);
    const block = options.blockTokens ?? Math.min(MAX_DEFAULT_BLOCK_TOKENS, Math.floor(max / BLOCK_SHARE));
    if (!Number.isInteger(block) || block < 0) throw new RangeError("blockTokens must be a whole number of tokens, 0 or more");
    if (block > 0 && block < MIN_BLOCK_TOKENS) {
      throw new ContextWindowTooSmallError(
        options.blockTokens === undefined
          ? `a window of ${max} tokens leaves ${block} for the memory block (a tenth), fewer than the ${MIN_BLOCK_TOKENS} one memory of ordinary length needs: use a window of at least ${MIN_BLOCK_TOKENS * BLOCK_SHARE} tokens, or give blockTokens (${MIN_BLOCK_TOKENS} or more, or 0 for no block)`
          : `a block of ${block} tokens holds no memory of ordinary length: give blockTokens of at least ${MIN_BLOCK_TOKENS}, or 0 for no block`,
        { contextMaxTokens: max, blockTokens: block, minimumBlockTokens: MIN_BLOCK_TOKENS },
      );
    }
    if (block >= this.target) {
      throw new ContextWindowTooSmallError(
        `a block of ${block} tokens leaves no room for messages below targetRatio of a ${max}-token window (${this.target} tokens)`,
        { contextMaxTokens: max, blockTokens: block, minimumBlockTokens: MIN_BLOCK_TOKENS },
      );
    }
    this.blockTokens = block;
    this.count = options.countTokens ?? estimateTokens;
    this.overhead = options.messageOverhead ?? 4;
  }

  /** How many of the conversation's non-system messages have been remembered and cut so far. */
  get rememberedCount(): number {
    return this.cut;
  }

  /**
   * Estimated tokens of one message as sent.
   *
   * @example
   * ```ts
   * const window = agent.contextWindow({ contextMaxTokens: 8_000 });
   * console.log(window.tokensOf({ role: "user", content: "I moved to Porto in May." }));
   * ```
   */
  tokensOf(message: ChatMessage): number {
    return this.count(message.content) + this.overhead;
  }

  /**
   * The id a message is remembered under: its own, or one from its position and content.
   *
   * @example
   * ```ts
   * const window = agent.contextWindow({ contextMaxTokens: 8_000, conversationId: "chat-42" });
   * console.log(window.idOf({ role: "user", content: "Hello" }, 0)); // the id it is remembered under
   * ```
   */
  idOf(message: ChatMessage, position: number): string {
    return message.id ?? `${this.options.conversationId ?? "cw"}-${position}-${fingerprint128(`${message.role}\u0000${message.content}`)}`;
  }

  /**
   * Messages to send and the block to inject for the conversation so far (see the module's comment).
   *
   * @example
   * ```ts
   * const window = agent.contextWindow({ contextMaxTokens: 32_000, inject: "context" });
   * const conversation = [
   *   { role: "system" as const, content: "You are a helpful assistant." },
   *   { role: "user" as const, content: "Where does Ines live now?" },
   * ];
   * const { messages, block, remembered } = await window.prepare(conversation);
   * const prompt = block === "" ? messages : [{ role: "system" as const, content: block }, ...messages];
   * console.log(prompt.length, remembered);
   * ```
   */
  async prepare(conversation: readonly ChatMessage[]): Promise<PreparedContext> {
    const system = conversation.filter((m) => m.role === "system");
    const turns = conversation.map((message, position) => ({ message, position })).filter((t) => t.message.role !== "system");
    const fixed = system.reduce((sum, m) => sum + this.tokensOf(m), 0) + this.blockTokens;
    let cut = Math.min(this.cut, turns.length);
    const tailTokens = (from: number) => turns.slice(from).reduce((sum, t) => sum + this.tokensOf(t.message), 0);
    let remembered = 0;
    const taskIds: string[] = [];
    if (fixed + tailTokens(cut) > this.threshold) {
      // Cut the oldest turns until the rest fits the target; the newest turn always stays.
      let tail = tailTokens(cut);
      let next = cut;
      while (next < turns.length - 1 && fixed + tail > this.target) {
        const turn = turns[next];
        if (turn) tail -= this.tokensOf(turn.message);
        next++;
      }
      const overflow = turns.slice(cut, next);
      for (let i = 0; i < overflow.length; i += MAX_MESSAGES_PER_REMEMBER) {
        const batch: Message[] = overflow.slice(i, i + MAX_MESSAGES_PER_REMEMBER).map(({ message, position }) => ({
          role: message.role,
          content: message.content,
          id: this.idOf(message, position),
          ...(message.name === undefined ? {} : { name: message.name }),
          ...(message.timestamp === undefined ? {} : { timestamp: message.timestamp }),
        }));
        // A stable Idempotency-Key per batch: a retry, or the same call again, is applied once.
        const accepted = await this.agent.remember({ messages: batch }, { ...this.options.request, idempotencyKey: batchKey(batch) });
        taskIds.push(accepted.task_id);
        remembered += batch.length;
      }
      cut = next;
      this.cut = Math.max(this.cut, cut);
    }
    const kept = turns.slice(cut).map((t) => t.message);
    const messages = [...system, ...kept];
    const block = await this.block(kept);
    const tokens = messages.reduce((sum, m) => sum + this.tokensOf(m), 0) + (block === "" ? 0 : this.count(block));
    return { messages, block, tokens, remembered, taskIds };
  }

  /**
   * Remembers every turn not remembered yet (at the end of a conversation); resolves with their tasks.
   *
   * @example
   * ```ts
   * const window = agent.contextWindow({ contextMaxTokens: 32_000 });
   * const taskIds = await window.flush([{ role: "user", content: "Bye! Talk tomorrow." }]);
   * for (const taskId of taskIds) await agent.waitForTask(taskId);
   * ```
   */
  async flush(conversation: readonly ChatMessage[]): Promise<string[]> {
    const turns = conversation.map((message, position) => ({ message, position })).filter((t) => t.message.role !== "system");
    const rest = turns.slice(this.cut);
    const taskIds: string[] = [];
    for (let i = 0; i < rest.length; i += MAX_MESSAGES_PER_REMEMBER) {
      const batch: Message[] = rest
        .slice(i, i + MAX_MESSAGES_PER_REMEMBER)
        .map(({ message, position }) => ({ role: message.role, content: message.content, id: this.idOf(message, position) }));
      taskIds.push((await this.agent.remember({ messages: batch }, { ...this.options.request, idempotencyKey: batchKey(batch) })).task_id);
    }
    this.cut = turns.length;
    return taskIds;
  }

  private async block(kept: readonly ChatMessage[]): Promise<string> {
    if (this.blockTokens === 0) return "";
    const locale = this.options.locale;
    if (this.options.inject === "recall") {
      const question = [...kept].reverse().find((m) => m.role === "user");
      if (!question) return "";
      const answer = await this.agent.recall(
        { query: question.content.slice(0, 2000), ...(locale ? { locale } : {}) },
        this.options.request,
      );
      return this.fit(answer.text);
    }
    const recent = kept.slice(-6).map((m) => ({ role: m.role, content: m.content.slice(0, 4000) }));
    // The API takes budgets of 20–32 000 tokens; a smaller block is cut here (fit).
    const budget = Math.min(32_000, Math.max(20, this.blockTokens));
    const input: GetContextInput = { budget_tokens: budget, ...(locale ? { locale } : {}) };
    if (recent.length > 0) input.messages = recent;
    const context = await this.agent.getContext(input, this.options.request);
    return this.fit(context.text);
  }

  /** The text cut to the block's budget by this helper's own count (the server counts with its estimate). */
  private fit(text: string): string {
    if (this.count(text) <= this.blockTokens) return text;
    const pieces = text.split("\n");
    while (pieces.length > 0 && this.count(pieces.join("\n")) > this.blockTokens) pieces.pop();
    return pieces.join("\n");
  }
}
