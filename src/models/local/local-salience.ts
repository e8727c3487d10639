/**
 * Term salience for the local model: which words a text is about. Shared by extraction (keywords,
 * entities, phrase) and compression (which clauses to keep).
 *
 * score(term) = Σ over occurrences (1 + 0.5 · (1 − position / tokenCount)) · lengthFactor · typeFactor
 *
 * so frequent, early, longer terms rank high, and proper names, acronyms, Latin words inside Chinese
 * text and repeated Chinese compounds are boosted, while adverbs, past-tense forms, common Chinese
 * verbs and numbers are damped.
 */
import { isContent, tokenize, type Token } from "../../text/tokenize";
import { splitSentences } from "../../text/sentences";
import { EN_FUNCTION_WORDS } from "../../text/stopwords-en";
import { ZH_COMMON_VERBS } from "../../text/stopwords-zh";

export type CandidateKind = "name" | "initial" | "word" | "compound" | "number";

export interface Candidate {
  /** Comparison key: the token norm, or norms joined by a space for multiword names. */
  key: string;
  /** The token norms the candidate is made of (one for a plain word). */
  parts: string[];
  /** Display form (first occurrence; names keep their capitals, ordinary words are lower case). */
  display: string;
  kind: CandidateKind;
  script: Token["script"];
  score: number;
  /** Index of the first occurrence, for stable ordering. */
  first: number;
  /** Whether it can name a thing: not a number, adverb, past-tense form or common verb. */
  nounLike: boolean;
}

/** A located token: offsets into its sentence, and whether it starts the sentence. */
export interface LocatedToken extends Token {
  start: number;
  end: number;
  initial: boolean;
  sentence: number;
}

/** Lower-case words allowed inside a name between capitalised words ("Museum of Modern Art"). */
const NAME_CONNECTORS = new Set(["of", "de", "da", "del", "du", "van", "von", "la", "le"]);
/** A "Name: text" line, as the segmenter writes merged short messages. */
const SPEAKER_LABEL = /^[^:：\n]{1,40}[:：][ \t]*/;
const CAPITALISED = /^\p{Lu}\p{Ll}/u;
const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}]{1,7}$/u;
const CAMEL = /^\p{Ll}+\p{Lu}|\p{Ll}\p{Lu}/u;
const ADVERB_OR_PAST = /(ly|ed)$/;
/** Day, month and time-of-day words: a set lookup first (it runs per token), the Chinese forms by pattern. */
const TIME_WORDS = new Set(
  "monday tuesday wednesday thursday friday saturday sunday january february march april june july august september october november december weekend week month year day morning evening night".split(
    " ",
  ),
);
const ZH_TIME_WORD = /^(周[一二三四五六日天末]|星期.|礼拜.|.月|.号)$/u;
export const isTimeWord = (norm: string): boolean => TIME_WORDS.has(norm) || (norm.length <= 6 && ZH_TIME_WORD.test(norm));

/** Removes speaker labels when every line of a multi-line text carries one. */
export function stripSpeakerLabels(text: string): string {
  const lines = text.split("\n");
  if (lines.length < 2 || !lines.every((l) => l.trim() === "" || SPEAKER_LABEL.test(l))) return text;
  return lines.map((l) => l.replace(SPEAKER_LABEL, "")).join("\n");
}

/** What extraction needs to know about a text, computed with a single tokenization. */
export interface Analysis {
  /** The text without speaker labels. */
  body: string;
  sentences: string[];
  /** Tokens of every sentence, with offsets into their sentence. */
  tokens: LocatedToken[];
  /** Most salient first. */
  candidates: Candidate[];
}

/** Candidates of `text`, most salient first. */
export function rankCandidates(text: string): Candidate[] {
  return analyze(text).candidates;
}

export function analyze(text: string): Analysis {
  const body = stripSpeakerLabels(text);
  const sentences = splitSentences(body);
  const tokens = locate(sentences);
  const n = Math.max(tokens.length, 1);
  const latin = tokens.filter((t) => t.script === "latin");
  const cjkChars = tokens.reduce((sum, t) => sum + (t.script === "cjk" ? t.text.length : 0), 0);
  const cjkText = cjkChars > latin.reduce((sum, t) => sum + t.text.length, 0) / 2;
  const shouting = latin.length >= 4 && latin.filter((t) => ACRONYM.test(t.text)).length * 2 > latin.length;
  const byKey = new Map<string, Candidate>();
  const add = (parts: string[], display: string, kind: CandidateKind, t: Token, at: number, weight: number) => {
    const gain = (1 + 0.5 * (1 - at / n)) * weight;
    const key = parts.join(" ");
    const old = byKey.get(key);
    if (old === undefined) {
      byKey.set(key, { key, parts, display, kind, script: t.script, score: gain, first: at, nounLike: nounLike(t) });
      return;
    }
    old.score += gain;
    if (rank(kind) > rank(old.kind)) [old.kind, old.display] = [kind, display];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) continue;
    const run = shouting ? 0 : nameRun(tokens, i);
    if (run > 0) {
      const parts = tokens.slice(i, i + run);
      const kind = run === 1 && t.initial && !ACRONYM.test(t.text) && !CAMEL.test(t.text) ? "initial" : "name";
      const display = parts.map((p) => bare(p.text)).join(" ");
      const norms = parts.map((p) => p.norm);
      add(norms, display, kind, t, i, lengthFactor(t.script, norms.join("")) * boost(t, kind, cjkText));
      i += run - 1;
      continue;
    }
    if (!isContent(t)) continue;
    const kind = t.script === "number" ? "number" : "word";
    const display = t.script === "latin" ? bare(t.text).toLowerCase() : t.text;
    add([t.norm], display, kind, t, i, lengthFactor(t.script, t.norm) * boost(t, kind, cjkText));
  }
  addCompounds(tokens, byKey, n);
  const candidates = [...byKey.values()].filter((c) => c.score > 0).sort((a, b) => b.score - a.score || a.first - b.first);
  return { body, sentences, tokens, candidates };
}

/**
 * Term weights by token norm (what `contentTerms` returns), for scoring sentences and clauses. A
 * name or compound shares its score among its parts, so "Museum of Modern Art" weighs as one name,
 * not three.
 */
export function termWeights(text: string): Map<string, number> {
  const weights = new Map<string, number>();
  const { candidates, tokens } = analyze(text);
  for (const c of candidates) {
    for (const part of c.parts) weights.set(part, Math.max(weights.get(part) ?? 0, c.score / c.parts.length));
  }
  for (const t of tokens) if (isContent(t) && !weights.has(t.norm)) weights.set(t.norm, 0.1);
  return weights;
}

/** Tokens of each sentence with their offsets, and which one opens its sentence. */
function locate(sentences: readonly string[]): LocatedToken[] {
  const out: LocatedToken[] = [];
  sentences.forEach((sentence, index) => {
    let cursor = 0;
    // Tokens cover every letter and digit, so only the first token has none before it.
    tokenize(sentence).forEach((t, i) => {
      const found = sentence.indexOf(t.text, cursor);
      const start = found < 0 ? cursor : found;
      cursor = start + t.text.length;
      const { text: surface, norm, script, stop } = t;
      out.push({ text: surface, norm, script, stop, start, end: cursor, initial: i === 0, sentence: index });
    });
  });
  return out;
}

/**
 * Length of the name starting at token i: consecutive capitalised / acronym / camel-case Latin tokens
 * of one sentence separated by single spaces ("New York", "Bruno Mars"). A name neither starts nor
 * ends with a stop word ("Thanks Isabella" → "Isabella") and never contains a function word.
 */
function nameRun(tokens: readonly LocatedToken[], i: number): number {
  const first = tokens[i];
  if (first === undefined || first.stop || !isNamePart(first)) return 0;
  let len = 1;
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j];
    const prev = tokens[j - 1];
    if (t === undefined || prev === undefined || t.sentence !== prev.sentence || t.start !== prev.end + 1) break;
    const next = tokens[j + 1];
    const connects = NAME_CONNECTORS.has(t.text) && next !== undefined && isNamePart(next) && next.start === t.end + 1;
    if (!isNamePart(t) && !connects) break;
    len++;
  }
  while (len > 1 && tokens[i + len - 1]?.stop === true) len--;
  return len;
}

function isNamePart(t: Token): boolean {
  if (t.script !== "latin" || EN_FUNCTION_WORDS.has(t.text.toLowerCase())) return false;
  return CAPITALISED.test(t.text) || (ACRONYM.test(t.text) && !t.stop) || CAMEL.test(t.text);
}

/**
 * Chinese compounds the segmenter split: a pair of adjacent content words that repeats (用户|系统 …
 * 用户|系统), or a lone pair of two-character nouns standing on its own (登录|模块 in 的登录模块设计).
 * The parts stay candidates at half their score.
 */
function addCompounds(tokens: readonly LocatedToken[], byKey: Map<string, Candidate>, n: number): void {
  const pairs = new Map<string, { display: string; at: number[]; parts: [string, string] }>();
  for (let i = 1; i < tokens.length; i++) {
    const a = tokens[i - 1];
    const b = tokens[i];
    if (a === undefined || b === undefined || !adjacentCjk(a, b) || a.text.length + b.text.length > 6) continue;
    const pair = pairs.get(a.norm + b.norm) ?? { display: a.text + b.text, at: [], parts: [a.norm, b.norm] };
    pair.at.push(i - 1);
    pairs.set(a.norm + b.norm, pair);
  }
  for (const [key, pair] of pairs) {
    const first = pair.at[0] ?? 0;
    if (pair.at.length < 2 && !isLoneNounPair(tokens, first)) continue;
    const score = pair.at.reduce((s, at) => s + (1 + 0.5 * (1 - at / n)), 0) * 1.3 * 1.5;
    const parts = [...pair.parts];
    byKey.set(key, { key, parts, display: pair.display, kind: "compound", script: "cjk", score, first, nounLike: true });
    for (const part of pair.parts) {
      const c = byKey.get(part);
      if (c !== undefined) c.score *= 0.5;
    }
  }
}

function adjacentCjk(a: LocatedToken, b: LocatedToken): boolean {
  return a.script === "cjk" && b.script === "cjk" && isContent(a) && isContent(b) && a.end === b.start && a.sentence === b.sentence;
}

/** Two two-character nouns side by side, with no third content word glued to either end. */
function isLoneNounPair(tokens: readonly LocatedToken[], i: number): boolean {
  const [before, a, b, after] = [tokens[i - 1], tokens[i], tokens[i + 1], tokens[i + 2]];
  if (a === undefined || b === undefined || a.text.length !== 2 || b.text.length !== 2) return false;
  if (!nounLike(a) || !nounLike(b)) return false;
  const glued = (x: LocatedToken | undefined, y: LocatedToken | undefined): boolean =>
    x !== undefined && y !== undefined && adjacentCjk(x, y) && nounLike(x) && nounLike(y);
  return !glued(before, a) && !glued(b, after);
}

function lengthFactor(script: Token["script"], norm: string): number {
  if (script === "cjk") return [0, 0.6, 1, 1.2][norm.length] ?? 1.3;
  return 0.6 + 0.1 * Math.min(norm.length, 8);
}

function boost(t: Token, kind: CandidateKind, cjkText: boolean): number {
  if (kind === "name") return 2;
  if (kind === "number") return 0.3;
  if (t.script === "latin" && cjkText) return 1.8;
  if (kind === "initial") return 1.3;
  return nounLike(t) ? 1 : 0.6;
}

function nounLike(t: Token): boolean {
  if (t.script === "number" || isTimeWord(t.norm)) return false;
  if (t.script !== "latin") return !ZH_COMMON_VERBS.has(t.norm);
  // "quickly", "excited" are not things; "family", "need" (left unstemmed) may be.
  const surface = bare(t.text).toLowerCase();
  return !ADVERB_OR_PAST.test(surface) || t.norm === surface;
}

/** Which reading of a term wins: a name anywhere, else a lower-case occurrence over a sentence-initial one. */
function rank(kind: CandidateKind): number {
  return kind === "name" ? 3 : kind === "initial" ? 1 : 2;
}

function bare(word: string): string {
  return word.normalize("NFKC").replace(/['’]s$/, "");
}
