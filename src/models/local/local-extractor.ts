/**
 * Local extraction (docs/design.md §4 step 2): a phrase, keywords and key entities for one text, from term
 * salience (local-salience.ts). Entities become focus nodes, so they must be what the text is
 * *about*: proper names and acronyms first, else its most salient noun-like word; never the name of
 * a day or a month (calendar-words.ts).
 */
import type { Extraction } from "../types";
import { PHRASE_MAX_CODE_POINTS } from "../types";
import { entityKey } from "../../text/entity-key";
import { isCalendarWord } from "../../text/calendar-words";
import { codePointLength } from "../../text/code-points";
import { normalizeText } from "../../text/normalize";
import { splitClauses } from "../../text/sentences";
import { isContent } from "../../text/tokenize";
import { cutAtWordBoundary } from "./local-compressor";
import { analyze, type Analysis, type Candidate } from "./local-salience";

export const KEYWORDS_MAX = 12;
export const ENTITIES_MAX = 3;
/**
 * When a text names fewer than this many proper names/acronyms, its most salient noun-like words
 * fill up to it, but only those at least half as salient as the first entity.
 */
export const ENTITIES_FILL = 2;

const HAS_CJK = /[\p{Script=Han}\u3040-\u30ff\uac00-\ud7af]/u;
const TRAILING_PUNCTUATION = /[\s\p{P}]+$/u;

export function extractOne(text: string): Extraction {
  const analysis = analyze(text);
  const ranked = analysis.candidates;
  const keywords = uniqueByNorm(ranked.filter((c) => c.kind !== "number")).slice(0, KEYWORDS_MAX);
  return {
    phrase: phraseOf(analysis, keywords),
    keywords: keywords.map((c) => c.display),
    entities: pickEntities(ranked).map((c) => c.display),
  };
}

function uniqueByNorm(candidates: readonly Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const norm = normalizeText(c.display);
    if (seen.has(norm)) return false;
    seen.add(norm);
    return true;
  });
}

/** Names and acronyms by salience (at most ENTITIES_MAX), then noun-like words up to ENTITIES_FILL. */
function pickEntities(ranked: readonly Candidate[]): Candidate[] {
  const chosen: Candidate[] = [];
  const tryAdd = (c: Candidate): void => {
    const key = entityKey(c.display);
    if (key === "" || isCalendarWord(key) || chosen.some((e) => overlaps(e, c))) return;
    chosen.push(c);
  };
  for (const c of ranked) if (c.kind === "name" && chosen.length < ENTITIES_MAX) tryAdd(c);
  for (const c of ranked) {
    if (chosen.length >= ENTITIES_FILL) break;
    if (c.kind === "name" || !c.nounLike || !longEnough(c)) continue;
    const lead = chosen[0];
    if (lead !== undefined && c.score < lead.score / 2) break;
    tryAdd(c);
  }
  return chosen;
}

/** A CJK entity needs two characters, a Latin one three letters (an acronym two). */
function longEnough(c: Candidate): boolean {
  if (c.kind === "number") return false;
  return codePointLength(c.key) >= (c.script === "latin" ? 3 : 2);
}

/** "用户" overlaps "用户系统"; "York" overlaps "New York". */
function overlaps(a: Candidate, b: Candidate): boolean {
  if (a.script === "cjk" || b.script === "cjk") return a.key.includes(b.key) || b.key.includes(a.key);
  const words = new Set(a.key.split(" "));
  return b.key.split(" ").some((w) => words.has(w));
}

/**
 * The phrase (短语): for Chinese, the first clause that has content, from its first content word,
 * cut to PHRASE_MAX_CODE_POINTS. For English, that clause when it fits, else the most salient
 * keywords that fit, in text order. A text without content words gives its own beginning.
 */
function phraseOf(analysis: Analysis, keywords: readonly Candidate[]): string {
  const first = analysis.tokens.find(isContent);
  const sentence = first === undefined ? undefined : analysis.sentences[first.sentence];
  if (first === undefined || sentence === undefined) {
    const body = analysis.body.trim();
    return cutAtWordBoundary(body.replace(TRAILING_PUNCTUATION, "") || body, PHRASE_MAX_CODE_POINTS);
  }
  let start = 0;
  let clause = sentence;
  for (const c of splitClauses(sentence)) {
    if (first.start < start + c.length) {
      clause = c;
      break;
    }
    start += c.length;
  }
  if (HAS_CJK.test(clause)) {
    const from = sentence.slice(first.start, start + clause.length);
    return cutAtWordBoundary(from.replace(TRAILING_PUNCTUATION, ""), PHRASE_MAX_CODE_POINTS);
  }
  const whole = clause.replace(TRAILING_PUNCTUATION, "").trim();
  if (codePointLength(whole) <= PHRASE_MAX_CODE_POINTS) return whole;
  return keywordPhrase(keywords) || cutAtWordBoundary(whole, PHRASE_MAX_CODE_POINTS);
}

function keywordPhrase(keywords: readonly Candidate[]): string {
  const picked: Candidate[] = [];
  let length = -1;
  for (const c of keywords) {
    const add = codePointLength(c.display) + 1;
    if (length + add > PHRASE_MAX_CODE_POINTS) continue;
    picked.push(c);
    length += add;
  }
  return picked
    .sort((a, b) => a.first - b.first)
    .map((c) => c.display)
    .join(" ");
}
