/**
 * What a tagged word is (tagged-words.ts): one small set of word classes for both taggers, the
 * script it is written in, its offsets, lemma, sentence and the flags the rules read.
 */

export type WordClass =
  | "name"
  | "noun"
  | "verb"
  | "adj"
  | "adv"
  | "num"
  | "pron"
  /** Determiners, adpositions, auxiliaries, conjunctions, particles, measure and localiser words. */
  | "function"
  | "interjection"
  | "punct"
  | "other";

export type WordScript = "latin" | "cjk" | "number" | "other";

export interface TaggedWord {
  text: string;
  /** UTF-16 offsets into the input text. */
  start: number;
  end: number;
  cls: WordClass;
  /** The library's own tag: UD for English (PROPN, NOUN …), jieba's for Chinese (nr, n, v …). */
  tag: string;
  /** Comparison form: the English lemma in lower case, the Chinese word itself. */
  lemma: string;
  script: WordScript;
  /** Index of the sentence (splitSentences) the word starts in. */
  sentence: number;
  /** Inside a negation's scope (English only; Chinese negation is a word of its own: 不, 没). */
  negated: boolean;
  /** A date, a time or a day/month name: what happened when, never what a memory is about. */
  temporal: boolean;
  /** An English noun or name of feeling or value (see isEvaluative). */
  evaluative: boolean;
}

export const CJK = /[\p{Script=Han}\u3040-\u30ff\u31f0-\u31ff\uac00-\ud7af]/u;
export const LATIN = /\p{Script=Latin}/u;
export const DIGITS = /^\p{N}[\p{N}.,:%]*$/u;
export const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

export function scriptOf(text: string): WordScript {
  if (CJK.test(text)) return "cjk";
  if (DIGITS.test(text)) return "number";
  return LATIN.test(text) ? "latin" : "other";
}
