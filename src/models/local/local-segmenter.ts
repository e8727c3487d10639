/**
 * Local semantic segmentation (语义切割, docs/design.md, "remember(messages)" step 1). A segment is a memory node, so it should
 * hold one complete thought: long messages are cut at sentence (then clause) boundaries into pieces
 * of balanced size, runs of very short messages (a greeting exchange) are merged into one segment,
 * and no visible character is ever dropped.
 */
import type { ModelMessage, SegmentDraft } from "../types";
import { codePointLength, sliceCodePoints } from "../../text/code-points";
import { splitClauses, splitSentences } from "../../language/sentences";

/**
 * Longest segment for English text, in code points: about two or three chat sentences. Chinese packs
 * roughly twice the information per code point, hence SEGMENT_MAX_CJK; mixed text interpolates by
 * its share of CJK characters.
 */
export const SEGMENT_MAX_LATIN = 160;
export const SEGMENT_MAX_CJK = 80;
/** Messages shorter than this (trimmed, in code points) are merged with their short neighbours. */
export const SHORT_MESSAGE = 20;

const CJK_CHAR = /[\p{Script=Han}\u3040-\u30ff\uac00-\ud7af]/gu;
const VISIBLE = /\S/gu;
const SPACE = /\s/;

/** A [start, end) span of a message's content, trimmed. */
interface Span {
  start: number;
  end: number;
}

/** A unit to pack, with the cost of cutting right after it, as a share of limit². */
interface Unit extends Span {
  cutCost: number;
}

/**
 * Cutting after a sentence is free; after a clause mark (，；：,;:) a little dear; after an
 * enumeration comma (、) or before "and"/"but" dearer; inside a clause (hard cut) dearest. So among
 * equally many segments, the packer prefers strong boundaries over perfectly even sizes.
 */
const CUT_COST = { sentence: 0, clause: 0.05, weak: 0.2, hard: 0.5 } as const;
const CLAUSE_MARK = /[，；：,;:]["'”’)）」』]*$/u;

/** The longest segment for `text`, by its share of CJK characters among visible ones. */
export function segmentLimit(text: string): number {
  const visible = text.match(VISIBLE)?.length ?? 0;
  if (visible === 0) return SEGMENT_MAX_LATIN;
  const share = (text.match(CJK_CHAR)?.length ?? 0) / visible;
  return Math.round(SEGMENT_MAX_LATIN - (SEGMENT_MAX_LATIN - SEGMENT_MAX_CJK) * share);
}

export function segmentMessages(messages: readonly ModelMessage[]): SegmentDraft[] {
  const out: SegmentDraft[] = [];
  let shortRun: ModelMessage[] = [];
  const flush = (): void => {
    out.push(...mergeShort(shortRun));
    shortRun = [];
  };
  for (const m of messages) {
    if (m.role === "system") flush(); // never merge across a system message, even an empty one
    const text = m.content.trim();
    if (text === "") continue;
    if (m.role !== "system" && codePointLength(text) < SHORT_MESSAGE) {
      shortRun.push(m);
      continue;
    }
    flush();
    out.push(...splitMessage(m));
  }
  flush();
  return out;
}

/** One `name: text` line per message, packed into segments of at most the segment limit. */
function mergeShort(run: readonly ModelMessage[]): SegmentDraft[] {
  const out: SegmentDraft[] = [];
  let group: ModelMessage[] = [];
  const emit = (): void => {
    const only = group[0];
    if (group.length === 1 && only !== undefined) out.push({ text: only.content.trim(), messageIndexes: [only.index] });
    else if (group.length > 1) out.push({ text: group.map(line).join("\n"), messageIndexes: group.map((m) => m.index) });
    group = [];
  };
  for (const m of run) {
    const candidate = [...group, m].map(line).join("\n");
    if (group.length > 0 && codePointLength(candidate) > segmentLimit(candidate)) emit();
    group.push(m);
  }
  emit();
  return out;
}

function line(m: ModelMessage): string {
  return `${m.name ?? m.role}: ${m.content.trim().replace(/\s+/g, " ")}`;
}

/** A message as one segment, or as several balanced pieces cut at sentence/clause boundaries. */
function splitMessage(m: ModelMessage): SegmentDraft[] {
  const content = m.content;
  const limit = segmentLimit(content);
  const whole = trimSpan(content, 0, content.length);
  if (codePointLength(content.slice(whole.start, whole.end)) <= limit) {
    return [{ text: content.slice(whole.start, whole.end), messageIndexes: [m.index] }];
  }
  const units = pieces(content, splitSentences(content), 0).flatMap((s) => fit(content, { ...s, cutCost: CUT_COST.sentence }, limit));
  return pack(content, units, limit).map((s) => ({ text: content.slice(s.start, s.end), messageIndexes: [m.index] }));
}

/** Spans of consecutive verbatim pieces starting at `offset`, whitespace-only ones dropped. */
function pieces(content: string, parts: readonly string[], offset: number): Span[] {
  const spans: Span[] = [];
  let at = offset;
  for (const part of parts) {
    const span = trimSpan(content, at, at + part.length);
    if (span.end > span.start) spans.push(span);
    at += part.length;
  }
  return spans;
}

/** A sentence longer than `limit` becomes its clauses; a clause still too long is cut hard. */
function fit(content: string, unit: Unit, limit: number): Unit[] {
  const text = content.slice(unit.start, unit.end);
  if (codePointLength(text) <= limit) return [unit];
  const clauses = pieces(content, splitClauses(text), unit.start);
  if (clauses.length > 1) {
    return clauses.flatMap((c, i) => {
      const last = i === clauses.length - 1;
      const cutCost = last ? unit.cutCost : CLAUSE_MARK.test(content.slice(c.start, c.end)) ? CUT_COST.clause : CUT_COST.weak;
      return fit(content, { ...c, cutCost }, limit);
    });
  }
  const cuts = hardCut(content, unit, limit);
  return cuts.map((c, i) => ({ ...c, cutCost: i === cuts.length - 1 ? unit.cutCost : CUT_COST.hard }));
}

/** Cuts at the last space within `limit` code points, or at `limit` when there is none. */
function hardCut(content: string, span: Span, limit: number): Span[] {
  const out: Span[] = [];
  let start = span.start;
  while (start < span.end) {
    const rest = content.slice(start, span.end);
    if (codePointLength(rest) <= limit) {
      out.push({ start, end: span.end });
      break;
    }
    const head = sliceCodePoints(rest, 0, limit);
    const space = head.search(/\s\S*$/);
    const cut = space > 0 ? space : head.length;
    out.push(trimSpan(content, start, start + cut));
    start = trimSpan(content, start + cut, span.end).start;
  }
  return out;
}

/**
 * Packs consecutive units into the fewest segments of at most `limit` code points, and among those
 * the most even ones (least squared slack) with the strongest boundaries (CUT_COST), so no segment
 * is a leftover fragment. Dynamic programming over unit boundaries; a segment spans from its first
 * unit's start to its last's end.
 */
function pack(content: string, units: readonly Unit[], limit: number): Span[] {
  const n = units.length;
  const cost = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(0);
  cost[0] = 0;
  for (let j = 1; j <= n; j++) {
    const end = units[j - 1]?.end ?? 0;
    for (let i = j; i >= 1; i--) {
      const len = codePointLength(content.slice(units[i - 1]?.start ?? 0, end));
      if (len > limit && i < j) break;
      const cut = j < n ? (units[j - 1]?.cutCost ?? 0) * limit ** 2 : 0;
      const c = (cost[i - 1] ?? Infinity) + 1e6 + (limit - len) ** 2 + cut;
      if (c < (cost[j] ?? Infinity)) [cost[j], from[j]] = [c, i - 1];
    }
  }
  const spans: Span[] = [];
  for (let j = n; j > 0; j = from[j] ?? 0) {
    spans.unshift({ start: units[from[j] ?? 0]?.start ?? 0, end: units[j - 1]?.end ?? 0 });
  }
  return spans;
}

function trimSpan(content: string, start: number, end: number): Span {
  let s = start;
  let e = end;
  while (s < e && SPACE.test(content.charAt(s))) s++;
  while (e > s && SPACE.test(content.charAt(e - 1))) e--;
  return { start: s, end: e };
}
