/**
 * The rules a Workers AI answer must keep beyond its JSON schema (docs/design.md, "Models": every model answer is
 * validated, then retried). A broken rule throws `WorkersAiError("invalid_answer")`, so the retry
 * policy and then the local fallback take over; harmless excess (a long phrase, blank keywords,
 * a fourth entity) is trimmed instead, since a retry would cost a call and gain nothing.
 */
import { entityKey } from "../../language/entities/entity-key";
import { SEGMENT_ENTITY_RELATIONS, type RelationName } from "../../vocabulary/relations";
import { codePointLength, sliceCodePoints } from "../../text/code-points";
import { normalizeText } from "../../text/normalize";
import { EN_STOP_WORDS } from "../../language/tokens/stopwords-en";
import { ZH_STOP_WORDS } from "../../language/tokens/stopwords-zh";
import { PHRASE_MAX_CODE_POINTS, type Extraction, type ModelMessage, type SegmentDraft } from "../types";
import { WorkersAiError } from "./workers-ai-error";
import { ENTITIES_MAX, type ExtractItem } from "./prompts/extract";
import { speakerOf } from "./prompts/segment";

const WHITESPACE = /\s+/gu;

function invalid(message: string): WorkersAiError {
  return new WorkersAiError("invalid_answer", message);
}

/**
 * Segments must keep every visible character of the messages, in order (the concatenated
 * segment texts, whitespace removed, contain the concatenated contents as a subsequence); the
 * only additions allowed are speaker labels, at most one `speaker:` per message. Each segment is
 * non-blank and names valid, strictly ascending message indexes; segments follow message order;
 * every non-blank message belongs to some segment.
 */
export function validateSegments(messages: readonly ModelMessage[], segments: readonly SegmentDraft[]): SegmentDraft[] {
  const known = new Set(messages.map((m) => m.index));
  const covered = new Set<number>();
  let last = -Infinity;
  const out = segments.map((s, i) => {
    const text = s.text.trim();
    if (text === "") throw invalid(`segment ${i} is empty`);
    const first = s.messageIndexes[0];
    if (first === undefined) throw invalid(`segment ${i} names no message`);
    if (first < last) throw invalid(`segment ${i} goes back to message ${first}`);
    s.messageIndexes.forEach((index, k) => {
      if (!known.has(index)) throw invalid(`segment ${i} names unknown message ${index}`);
      if (k > 0 && index <= (s.messageIndexes[k - 1] ?? -Infinity)) throw invalid(`segment ${i} message indexes are not ascending`);
      covered.add(index);
      last = index;
    });
    return { text, messageIndexes: [...s.messageIndexes] };
  });
  for (const m of messages) {
    if (m.content.trim() !== "" && !covered.has(m.index)) throw invalid(`message ${m.index} is in no segment`);
  }
  const needle = Array.from(
    messages
      .map((m) => m.content)
      .join("")
      .replace(WHITESPACE, ""),
  );
  const haystack = Array.from(
    out
      .map((s) => s.text)
      .join("")
      .replace(WHITESPACE, ""),
  );
  const dropped = firstMissing(needle, haystack);
  if (dropped !== undefined) throw invalid(`segments drop or change the text from "${needle.slice(dropped, dropped + 12).join("")}"`);
  const labels = messages.reduce((n, m) => n + codePointLength(speakerOf(m).replace(WHITESPACE, "")) + 1, 0);
  if (haystack.length - needle.length > labels) throw invalid("segments add text beyond speaker labels");
  return out;
}

/** Index of the first code point of `needle` not found, in order, in `haystack`; undefined when all are. */
function firstMissing(needle: readonly string[], haystack: readonly string[]): number | undefined {
  let at = 0;
  for (let i = 0; i < needle.length; i++) {
    while (at < haystack.length && haystack[at] !== needle[i]) at++;
    if (at === haystack.length) return i;
    at++;
  }
  return undefined;
}

/**
 * One extraction per text. The phrase is cut to PHRASE_MAX_CODE_POINTS; keywords are trimmed,
 * blank ones dropped and duplicates (by normal form) removed; entities likewise, and also those
 * with no meaningful key or that are stop words (pronouns), keeping at most ENTITIES_MAX.
 */
export function validateExtractions(items: readonly ExtractItem[], expected: number): Extraction[] {
  if (items.length !== expected) throw invalid(`expected ${expected} extractions, got ${items.length}`);
  return items.map((item) => ({
    phrase: sliceCodePoints(item.phrase.trim(), 0, PHRASE_MAX_CODE_POINTS).trim(),
    keywords: unique(
      item.keywords.map((k) => k.trim()).filter((k) => k !== ""),
      normalizeText,
    ),
    entities: unique(
      item.entities.map((e) => e.trim()).filter((e) => entityKey(e) !== "" && !isStopWord(e)),
      entityKey,
    ).slice(0, ENTITIES_MAX),
  }));
}

function isStopWord(word: string): boolean {
  const norm = normalizeText(word);
  return EN_STOP_WORDS.has(norm) || ZH_STOP_WORDS.has(norm);
}

function unique(words: readonly string[], keyOf: (w: string) => string): string[] {
  const seen = new Set<string>();
  return words.filter((w) => {
    const key = keyOf(w);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One relation per request, each from SEGMENT_ENTITY_RELATIONS. */
export function validateRelations(names: readonly string[], expected: number): RelationName[] {
  if (names.length !== expected) throw invalid(`expected ${expected} relations, got ${names.length}`);
  return names.map((name) => {
    const relation = SEGMENT_ENTITY_RELATIONS.find((r) => r === name.trim());
    if (relation === undefined) throw invalid(`relation "${name}" is not in the vocabulary`);
    return relation;
  });
}

/** A compression is non-blank and at most `target` code points once trimmed. */
export function validateCompression(text: string, target: number): string {
  const trimmed = text.trim();
  if (trimmed === "") throw invalid("the compression is empty");
  const length = codePointLength(trimmed);
  if (length > target) throw invalid(`the compression has ${length} code points, over the target ${target}`);
  return trimmed;
}

/** A summary is non-blank and within its bound. */
export function validateSummary(summary: string, max: number): string {
  const trimmed = summary.trim();
  if (trimmed === "") throw invalid("the summary is empty");
  const length = codePointLength(trimmed);
  if (length > max) throw invalid(`the summary has ${length} code points, over the bound ${max}`);
  return trimmed;
}

/** Query keywords are non-blank strings; duplicates (by normal form) are removed. */
export function validateQueryKeywords(keywords: readonly string[]): string[] {
  const trimmed = keywords.map((k) => k.trim());
  if (trimmed.some((k) => k === "")) throw invalid("a query keyword is empty");
  return unique(trimmed, normalizeText);
}
