/**
 * Cuts a submission into segmentation windows that fit a model's budget (docs/design.md, "Robustness promises": long inputs
 * are cut into windows). A segmentation answer repeats its input verbatim, so a window is bounded
 * by what one answer may hold as much as by the context window; the caller turns both into one
 * budget of text tokens (workers-ai-planner.ts). Whole messages are packed in order; a message
 * too long for one window is cut at sentence, then clause boundaries, then at the last space
 * that fits (or anywhere, for unbroken CJK text), into verbatim parts that keep the message's
 * index. Parts are trimmed and the whitespace between them is recorded, so the windows together
 * hold every visible character exactly once.
 */
import type { SegmentWindow } from "./call-planner";
import type { ModelMessage } from "./types";
import { splitClauses, splitSentences } from "../language/sentences";

export interface WindowBudget {
  /** Most tokens one window may carry: its messages' text plus their overhead. */
  maxTokens: number;
  /** Estimated tokens of a text (monotone and roughly additive). */
  tokens(text: string): number;
  /** Tokens a message costs beyond its text (JSON keys, index, speaker label in the answer). */
  overhead(message: ModelMessage): number;
}

interface Piece {
  message: ModelMessage;
  cost: number;
  /** For a part of a split message after the first: the whitespace before it. */
  gapBefore?: string;
}

export function planSegmentWindows(messages: readonly ModelMessage[], budget: WindowBudget): SegmentWindow[] {
  const windows: SegmentWindow[] = [];
  let current: Piece[] = [];
  let used = 0;
  const close = (): void => {
    const first = current[0];
    if (!first) return;
    const window: SegmentWindow = { messages: current.map((p) => p.message) };
    if (first.gapBefore !== undefined) window.continuation = { index: first.message.index, gap: first.gapBefore };
    windows.push(window);
    current = [];
    used = 0;
  };
  for (const piece of messages.flatMap((m) => piecesOf(m, budget))) {
    // A later part of a split message always opens a window, so no window holds two parts of one
    // message and every cut inside a message is a window boundary the join knows about.
    if (current.length > 0 && (used + piece.cost > budget.maxTokens || piece.gapBefore !== undefined)) close();
    current.push(piece);
    used += piece.cost;
  }
  close();
  return windows;
}

/** The message itself when it fits a window, else its verbatim parts. */
function piecesOf(message: ModelMessage, budget: WindowBudget): Piece[] {
  const overhead = budget.overhead(message);
  const cost = budget.tokens(message.content) + overhead;
  if (cost <= budget.maxTokens || message.content.trim() === "") return [{ message, cost }];
  const limit = budget.maxTokens - overhead;
  if (limit < 1) throw new RangeError(`a window of ${budget.maxTokens} tokens cannot hold message ${message.index}`);
  const parts = packSpans(message.content, unitsOf(message.content, 0, message.content.length, limit, budget.tokens), limit, budget.tokens);
  return parts.map((span, i) => {
    const content = message.content.slice(span.start, span.end);
    const previous = parts[i - 1];
    const piece: Piece = { message: { ...message, content }, cost: budget.tokens(content) + overhead };
    if (previous) piece.gapBefore = message.content.slice(previous.end, span.start);
    return piece;
  });
}

interface Span {
  start: number;
  end: number;
}

/** Trimmed spans of `text[start, end)` no longer than `limit` tokens each: sentences, clauses, hard cuts. */
function unitsOf(text: string, start: number, end: number, limit: number, tokens: (t: string) => number): Span[] {
  const out: Span[] = [];
  let at = start;
  for (const sentence of splitSentences(text.slice(start, end))) {
    const span = trim(text, at, at + sentence.length);
    at += sentence.length;
    if (span.end <= span.start) continue;
    if (tokens(text.slice(span.start, span.end)) <= limit) out.push(span);
    else out.push(...clausesOf(text, span, limit, tokens));
  }
  return out;
}

function clausesOf(text: string, span: Span, limit: number, tokens: (t: string) => number): Span[] {
  const out: Span[] = [];
  let at = span.start;
  for (const clause of splitClauses(text.slice(span.start, span.end))) {
    const piece = trim(text, at, at + clause.length);
    at += clause.length;
    if (piece.end <= piece.start) continue;
    if (tokens(text.slice(piece.start, piece.end)) <= limit) out.push(piece);
    else out.push(...hardCuts(text, piece, limit, tokens));
  }
  return out;
}

/**
 * Longest prefixes within `limit`, cut at the last whitespace when there is one. Tokens are summed
 * per code point (the estimate is additive), so a long unbroken text costs one pass, not one per
 * character.
 */
function hardCuts(text: string, span: Span, limit: number, tokens: (t: string) => number): Span[] {
  const out: Span[] = [];
  let start = span.start;
  while (start < span.end) {
    let end = start;
    let used = 0;
    for (const ch of text.slice(start, span.end)) {
      used += tokens(ch);
      if (used > limit && end > start) break;
      end += ch.length;
    }
    if (end < span.end) {
      const space = text.slice(start, end).search(/\s\S*$/u);
      if (space > 0) end = start + space;
    }
    const piece = trim(text, start, end);
    if (piece.end > piece.start) out.push(piece);
    start = trim(text, end, span.end).start;
  }
  return out;
}

/** Greedy: consecutive units joined while the joined text stays within `limit` tokens. */
function packSpans(text: string, units: readonly Span[], limit: number, tokens: (t: string) => number): Span[] {
  const out: Span[] = [];
  let used = 0;
  for (const unit of units) {
    const last = out.at(-1);
    const added = last ? tokens(text.slice(last.end, unit.end)) : 0;
    if (last && used + added <= limit) {
      last.end = unit.end;
      used += added;
    } else {
      out.push({ ...unit });
      used = tokens(text.slice(unit.start, unit.end));
    }
  }
  return out;
}

const SPACE = /\s/u;

function trim(text: string, start: number, end: number): Span {
  let s = start;
  let e = end;
  while (s < e && SPACE.test(text.charAt(s))) s++;
  while (e > s && SPACE.test(text.charAt(e - 1))) e--;
  return { start: s, end: e };
}
