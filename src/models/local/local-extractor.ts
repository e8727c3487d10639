/**
 * Local extraction (docs/design.md, "remember(messages)" step 2): a phrase, keywords and key entities for one text, from
 * term salience over its tagged words (src/language/salience/analysis.ts). Entities become focus nodes, so they must
 * be what the text is *about* (docs/design.md, "The model", "What an entity is"): names, noun compounds and
 * nouns, most salient first; a compound is preferred to the nouns inside it ("adoption agency", not
 * "agency"), and a noun far less salient than the first entity is left out.
 */
import type { Extraction } from "../types";
import { PHRASE_MAX_CODE_POINTS } from "../types";
import { entityKey } from "../../language/entities/entity-key";
import { isCalendarWord } from "../../language/time/calendar-words";
import { codePointLength } from "../../text/code-points";
import { normalizeText } from "../../text/normalize";
import { splitClauses } from "../../language/sentences";
import { cutAtWordBoundary } from "./local-compressor";
import { analyze, termWeights, type Analysis, type Candidate } from "../../language/salience/analysis";
import { isContentWord } from "../../language/salience/content-words";
import type { TagMemo, TaggedWord } from "../../language/tagging/tagged-words";

export const KEYWORDS_MAX = 12;
export const ENTITIES_MAX = 5;
/** An entity after the first must be at least this share as salient as the first. */
export const ENTITY_MIN_SHARE = 0.4;

const TRAILING_PUNCTUATION = /[\s\p{P}]+$/u;

export function extractOne(text: string, memo?: TagMemo): Extraction {
  const analysis = analyze(text, memo === undefined ? {} : { memo });
  const keywords = uniqueByNorm(analysis.candidates.filter((c) => c.kind !== "number")).slice(0, KEYWORDS_MAX);
  return {
    phrase: phraseOf(analysis),
    keywords: keywords.map((c) => c.display),
    entities: pickEntities(analysis.candidates).map((c) => c.display),
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

/** The entity candidates by salience, a compound before the nouns inside it, without overlaps. */
function pickEntities(ranked: readonly Candidate[]): Candidate[] {
  const eligible = ranked.filter((c) => c.entity && entityKey(c.display) !== "" && !isCalendarWord(entityKey(c.display)));
  const compounds = eligible.filter((c) => c.parts.length > 1);
  // A noun inside a compound counts at half its score: the compound says what it is.
  const score = (c: Candidate) => (c.parts.length === 1 && compounds.some((k) => overlaps(k, c)) ? c.score / 2 : c.score);
  const ordered = [...eligible].sort((a, b) => score(b) - score(a) || a.first - b.first);
  const chosen: Candidate[] = [];
  const lead = ordered[0];
  for (const c of ordered) {
    if (chosen.length >= ENTITIES_MAX) break;
    if (lead !== undefined && score(c) < score(lead) * ENTITY_MIN_SHARE) break;
    if (chosen.some((e) => overlaps(e, c))) continue;
    // An aside (a bracketed remark, a photo's caption) adds at most one entity: its main one.
    if (c.aside && chosen.some((e) => e.aside)) continue;
    chosen.push(c);
  }
  return chosen;
}

/**
 * "用户" overlaps "用户系统"; "York" overlaps "New York"; "agency" overlaps "adoption agency". A
 * proper name does not overlap the compound it heads ("JavaScript", "JavaScript bundles"): the
 * name is the entity other memories will meet again.
 */
function overlaps(a: Candidate, b: Candidate): boolean {
  if ((a.kind === "name") !== (b.kind === "name") && (a.kind === "compound" || b.kind === "compound")) {
    const [name, compound] = a.kind === "name" ? [a, b] : [b, a];
    if (compound.parts[0] === name.parts[0] && name.parts.length < compound.parts.length) return false;
  }
  if (a.script === "cjk" || b.script === "cjk") return a.key.includes(b.key) || b.key.includes(a.key);
  const words = new Set(a.parts);
  return b.parts.some((w) => words.has(w));
}

/**
 * The phrase (短语): the most telling stretch of one clause, at most PHRASE_MAX_CODE_POINTS code
 * points, from a content word to a content word, as written: the stretch whose content words weigh
 * most (ties: the longer, then the earlier). Always text of the segment, never a list of its
 * keywords. A text without content words gives its own beginning.
 */
function phraseOf(analysis: Analysis): string {
  const { body, words } = analysis;
  const weights = termWeights(analysis);
  const clauses = clauseSpans(analysis);
  // Code points between two offsets: the UTF-16 distance unless the body has surrogate pairs.
  const plain = codePointLength(body) === body.length;
  let best: { start: number; end: number; weight: number } | undefined;
  for (const [clauseStart, clauseEnd] of clauses) {
    const inClause = words.filter((w) => w.start >= clauseStart && w.end <= clauseEnd);
    // Each word's tests once, not once per stretch it ends.
    const content = inClause.map(isContentWord);
    const nameLike = inClause.map(namey);
    const weight = inClause.map((w) => weights.get(w.lemma) ?? 0);
    // A stretch never starts or ends inside a name ("York with Alice" of "New York with Alice").
    const inName = (i: number, step: number) => nameLike[i] === true && nameLike[i + step] === true;
    for (let a = 0; a < inClause.length; a++) {
      const first = inClause[a];
      if (first === undefined || !(content[a] === true || nameLike[a] === true) || inName(a, -1)) continue;
      let sum = 0;
      for (let b = a; b < inClause.length; b++) {
        const last = inClause[b];
        if (last === undefined) break;
        const length = plain ? last.end - first.start : codePointLength(body.slice(first.start, last.end));
        if (length > PHRASE_MAX_CODE_POINTS) break;
        if (content[b] !== true || inName(b, 1)) continue;
        sum += weight[b] ?? 0;
        const span = { start: first.start, end: last.end, weight: sum };
        if (best === undefined || better(span, best)) best = span;
      }
    }
  }
  if (best !== undefined) {
    // A clause that fits whole is the most readable phrase ("I love my new puppy", not "puppy").
    const clause = clauses.find(([from, to]) => from <= best.start && best.end <= to);
    const whole = clause === undefined ? "" : body.slice(clause[0], clause[1]).trim().replace(TRAILING_PUNCTUATION, "");
    if (whole !== "" && codePointLength(whole) <= PHRASE_MAX_CODE_POINTS) return whole;
    return body.slice(best.start, best.end);
  }
  const trimmed = body.trim();
  return cutAtWordBoundary(trimmed.replace(TRAILING_PUNCTUATION, "") || trimmed, PHRASE_MAX_CODE_POINTS);
}

/** A name's word: tagged a name, or a capitalised Latin word (the tagger calls "New" of New York a noun). */
function namey(w: TaggedWord | undefined): boolean {
  return w !== undefined && (w.cls === "name" || (w.script === "latin" && w.cls !== "pron" && /^\p{Lu}/u.test(w.text)));
}

function better(a: { start: number; end: number; weight: number }, b: { start: number; end: number; weight: number }): boolean {
  const eps = 1e-9;
  if (a.weight > b.weight + eps) return true;
  if (a.weight < b.weight - eps) return false;
  return a.end - a.start > b.end - b.start;
}

/** [start, end) offsets of every clause of the body. */
function clauseSpans(analysis: Analysis): [number, number][] {
  const spans: [number, number][] = [];
  let at = 0;
  for (const sentence of analysis.sentences) {
    let inner = at;
    for (const clause of splitClauses(sentence)) {
      spans.push([inner, inner + clause.length]);
      inner += clause.length;
    }
    at += sentence.length;
  }
  return spans;
}
