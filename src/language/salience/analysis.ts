/**
 * Term salience: which words a text is about, from its words' parts of speech
 * (src/language/tagging/tagged-words.ts). Shared by extraction (keywords, entities, phrase) and compression
 * (which words and clauses to keep).
 *
 * Candidates are proper names (runs of names: "New York", "Museum of Modern Art"), noun compounds
 * ("adoption agency", "pottery class", 冰淇淋店), single nouns, and the other content words (verbs,
 * adjectives, numbers) as keywords only. A candidate's score sums over its occurrences
 *
 *   (1 + 0.5 · (1 − position / words)) · lengthFactor · classFactor
 *
 * so frequent, early, longer terms rank high; names and compounds are boosted, verbs and adjectives
 * damped, numbers damped most.
 *
 * What can be an entity is decided with the candidates (entity-words.ts); names are found by
 * names.ts.
 */
import { codePointLength } from "../../text/code-points";
import { splitSentences } from "../sentences";
import { tagWords, type TagMemo, type TaggedWord, type WordScript } from "../tagging/tagged-words";
import { isContentWord, stripSpeakerLabels } from "./content-words";
import { compoundRun, isEntityCompound, isEntityNoun } from "./entity-words";
import { idiomWords } from "./fixed-phrase-words";
import { ACRONYM, CAPITALISED, nameRun, quotedNames, slot, vocative } from "./names";

export type CandidateKind = "name" | "compound" | "noun" | "word" | "number";

export interface Candidate {
  /** Comparison key: the lemmas of its words joined by a space (Chinese: joined). */
  key: string;
  /** The lemmas of the words it is made of (one for a plain word). */
  parts: string[];
  /** Display form: its first occurrence as written; common nouns in lower case. */
  display: string;
  kind: CandidateKind;
  script: WordScript;
  score: number;
  /** Index (into `words`) of the first word of its first occurrence, for stable ordering. */
  first: number;
  /** Whether it may be an entity (see the module comment). */
  entity: boolean;
  /** A date, a time or a day or month name. */
  temporal: boolean;
  /** Every occurrence stands inside brackets (an aside). */
  aside: boolean;
}

/** What extraction and compression need to know about a text, computed with a single tagging. */
export interface Analysis {
  /** The text without speaker labels. */
  body: string;
  sentences: string[];
  /** Words of the body with offsets into it. */
  words: TaggedWord[];
  /** Most salient first. */
  candidates: Candidate[];
}

/** Opening and closing brackets: what stands between them is an aside. */
const OPEN_BRACKET = /[([（【]/u;
const CLOSE_BRACKET = /[)\]）】]/u;

export interface AnalyzeOptions {
  /** Keep "Name: " line labels as text (a summary quotes its lines whole). */
  keepLabels?: boolean;
  /** The agent's memo of tagged lines (tag-memo.ts). */
  memo?: TagMemo;
}

export function analyze(text: string, options: AnalyzeOptions = {}): Analysis {
  const body = options.keepLabels === true ? text : stripSpeakerLabels(text);
  const sentences = splitSentences(body);
  const words = tagWords(body, options.memo, sentences);
  const n = Math.max(words.length, 1);
  const aside = asides(body, words);
  const fixed = idiomWords(words);
  const byKey = new Map<string, Candidate>();
  const add = (from: number, to: number, kind: CandidateKind, entity: boolean) => {
    const parts = words.slice(from, to).filter((w) => w.cls !== "function");
    const first = words[from];
    if (first === undefined || parts.length === 0) return;
    const cjk = first.script === "cjk";
    const key = parts.map((w) => w.lemma).join(cjk ? "" : " ");
    const gain = (1 + 0.5 * (1 - from / n)) * lengthFactor(first.script, key) * classFactor(kind) * (aside[from] ? ASIDE_WEIGHT : 1);
    const old = byKey.get(key);
    if (old !== undefined) {
      old.score += gain;
      old.entity ||= entity;
      old.aside &&= aside[from] === true;
      return;
    }
    const display = displayOf(body, words, from, to, kind);
    const temporal = parts.some((w) => w.temporal);
    byKey.set(key, {
      key,
      parts: parts.map((w) => w.lemma),
      display,
      kind,
      script: first.script,
      score: gain,
      first: from,
      entity,
      temporal,
      aside: aside[from] === true,
    });
  };
  for (const [from, to] of quotedNames(body, words)) add(from, to, "name", true);
  let compoundEnd = 0;
  for (let i = 0; i < words.length; i++) {
    // A compound is taken whole, never again from one of its later words ("event planning" in
    // "school event planning").
    const compound = i >= compoundEnd ? compoundRun(words, i) : 0;
    if (compound > 1) {
      add(i, i + compound, "compound", !fixed.has(i + compound - 1) && isEntityCompound(words, i, i + compound));
      compoundEnd = i + compound;
    }
    const name = nameRun(words, i);
    if (name > 0) {
      add(
        i,
        i + name,
        "name",
        !vocative(words, i, i + name) && !slot(words, i, i + name) && !words.slice(i, i + name).some((x) => x.temporal),
      );
      i += name - 1;
      continue;
    }
    addWord(i);
  }
  function addWord(i: number): void {
    const w = words[i];
    if (w === undefined || !isContentWord(w)) return;
    if (w.cls === "num" || w.script === "number") add(i, i + 1, "number", false);
    else if (w.cls === "noun" || w.cls === "name") add(i, i + 1, "noun", !fixed.has(i) && !slot(words, i, i + 1) && isEntityNoun(words, i));
    else add(i, i + 1, "word", false);
  }
  const candidates = [...byKey.values()].filter((c) => c.score > 0).sort((a, b) => b.score - a.score || a.first - b.first);
  return { body, sentences, words, candidates };
}

/** An occurrence inside brackets (an aside: "[shares a photo: …]", "(see below)") counts this much. */
const ASIDE_WEIGHT = 0.5;

/** Per word, whether it stands inside brackets. */
function asides(body: string, words: readonly TaggedWord[]): boolean[] {
  if (!OPEN_BRACKET.test(body)) return words.map(() => false);
  const inside: boolean[] = [];
  let depth = 0;
  let at = 0;
  for (const w of words) {
    for (; at < w.start; at++) {
      const c = body.charAt(at);
      if (OPEN_BRACKET.test(c)) depth++;
      else if (CLOSE_BRACKET.test(c) && depth > 0) depth--;
    }
    inside.push(depth > 0);
  }
  return inside;
}

/**
 * Term weights by lemma, for scoring sentences and clauses. A name or compound shares its score
 * among its parts, so "Museum of Modern Art" weighs as one name, not three.
 */
export function termWeights(analysis: Analysis): Map<string, number> {
  const weights = new Map<string, number>();
  for (const c of analysis.candidates) {
    for (const part of c.parts) weights.set(part, Math.max(weights.get(part) ?? 0, c.score / c.parts.length));
  }
  for (const w of analysis.words) if (isContentWord(w) && !weights.has(w.lemma)) weights.set(w.lemma, 0.1);
  return weights;
}

/** The lemmas of the content words of `analysis.body` between `start` and `end` (offsets), in order. */
export function contentLemmas(analysis: Analysis, start: number, end: number): string[] {
  return analysis.words.filter((w) => w.start >= start && w.end <= end && isContentWord(w)).map((w) => w.lemma);
}

/** The words from `from` to `to` as written; a common noun in lower case unless it is an acronym. */
function displayOf(body: string, words: readonly TaggedWord[], from: number, to: number, kind: CandidateKind): string {
  const first = words[from];
  const last = words[to - 1];
  if (first === undefined || last === undefined) return "";
  const surface = body.slice(first.start, last.end).replace(/['’]s$/u, "");
  if (kind === "name" || first.script === "cjk") return surface;
  // A capitalised word inside a sentence is written as a name ("New York City"); a sentence's first
  // word may be capitalised only because it comes first.
  const midSentence = (i: number) => words[i - 1]?.sentence === words[i]?.sentence;
  return words
    .slice(from, to)
    .map((w, k) =>
      w.cls === "name" || ACRONYM.test(w.text) || (CAPITALISED.test(w.text) && midSentence(from + k)) ? w.text : w.text.toLowerCase(),
    )
    .join(" ")
    .replace(/ (['’])/gu, "$1");
}

function lengthFactor(script: WordScript, key: string): number {
  if (script === "cjk") return [0, 0.6, 1, 1.2][codePointLength(key)] ?? 1.3;
  return 0.6 + 0.1 * Math.min(key.length, 8);
}

function classFactor(kind: CandidateKind): number {
  switch (kind) {
    case "name":
      return 2;
    case "compound":
      return 1.6;
    case "noun":
      return 1;
    case "word":
      return 0.6;
    case "number":
      return 0.3;
  }
}
