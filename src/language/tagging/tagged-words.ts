/**
 * Words with their part of speech, for the rules that need to know what a word is (docs/design.md,
 * "Models": keywords, entities, phrases, conflicts, query keywords): Chinese through jieba
 * (chinese-words.ts), English through winkNLP (english-words.ts), both mapped to one small set of
 * word classes (word-classes.ts). A text with CJK characters goes to jieba as a whole (it keeps Latin words
 * such as "JWT" whole, tagged `eng`); any other text to wink.
 *
 * Full-width letters and digits (ＡＬＩＣＥ, ３) are folded to ASCII first, one code unit for one, so offsets stay
 * those of the input.
 */
import { ABSTRACT_NOUNS } from "../tables/abstract-nouns";
import { splitSentences } from "../sentences";
import { chineseWords } from "./chinese-words";
import { englishTaggerLoaded, loadEnglishTagger } from "./english-tagger";
import { englishWords } from "./english-words";
import { CJK, LATIN, type TaggedWord } from "./word-classes";

export type { TaggedWord, WordScript } from "./word-classes";

/**
 * A memo for tagging (the local model keeps one per agent, src/language/tagging/tag-memo.ts): the
 * tags of a line already seen. What it returns is read, never changed; tagWords copies the words it
 * gives out.
 */
export interface TagMemo {
  line(line: string, tag: (line: string) => readonly TaggedWord[]): readonly TaggedWord[];
}

const FULL_WIDTH = /[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/gu;

/** Two or more Latin words in a row: English inside a Chinese text ("Grace bought 苹果 for the team"). */
const LATIN_RUN = /[A-Za-z][A-Za-z'’-]*(?:[ \t,;:'"’-]+[A-Za-z0-9][A-Za-z0-9'’-]*)+/g;

/** Loads what tagging `texts` needs (the English model, on the first English text). */
export async function loadTaggersFor(texts: readonly string[]): Promise<void> {
  if (englishTaggerLoaded()) return;
  if (texts.some((t) => (CJK.test(t) ? new RegExp(LATIN_RUN.source).test(t) : LATIN.test(t)))) await loadEnglishTagger();
}

/** Loads every tagger now (tests, the benchmark's probe). */
export async function loadTaggers(): Promise<void> {
  await loadEnglishTagger();
}

/** Folds full-width letters and digits to ASCII, one UTF-16 unit for one (punctuation stays). */
export function foldWidth(text: string): string {
  return text.replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}

/**
 * The words of `text` in order (whitespace is not a word; punctuation is, as class `punct`). Each
 * line is tagged on its own, so a text made of lines already seen (an episode's segments, a clause
 * parsed twice) reuses their tags through `memo`. `sentences`, when the caller has them, are
 * splitSentences(text): they are not split again unless folding changed the text.
 */
export function tagWords(text: string, memo?: TagMemo, sentences?: readonly string[]): TaggedWord[] {
  const folded = foldWidth(text);
  const sentenceStarts = sentenceOffsets(sentences !== undefined && folded === text ? sentences : splitSentences(folded));
  // The English model may be loaded later in the isolate's life: a line's tags depend on it.
  const key = englishTaggerLoaded() ? "" : "\u0000";
  const tagLine = (line: string) => (CJK.test(line) ? mixedWords(line) : englishWords(line));
  const words: TaggedWord[] = [];
  let at = 0;
  for (const line of folded.split("\n")) {
    const tagged = memo === undefined ? tagLine(line) : memo.line(key + line, () => tagLine(line));
    for (const w of tagged) words.push({ ...w, start: w.start + at, end: w.end + at });
    at += line.length + 1;
  }
  let sentence = 0;
  for (const w of words) {
    while (sentence + 1 < sentenceStarts.length && (sentenceStarts[sentence + 1] ?? Infinity) <= w.start) sentence++;
    w.sentence = sentence;
  }
  return words;
}

function sentenceOffsets(sentences: readonly string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const s of sentences) {
    starts.push(at);
    at += s.length;
  }
  return starts;
}

/** Chinese text through jieba, its runs of English words (two or more) through wink. */
function mixedWords(text: string): TaggedWord[] {
  const words = chineseWords(text);
  if (!englishTaggerLoaded()) return words;
  const runs = [...text.matchAll(LATIN_RUN)].map((m) => [m.index, m.index + m[0].length] as const);
  if (runs.length === 0) return words;
  const inRun = (w: TaggedWord) => runs.some(([from, to]) => w.start >= from && w.end <= to);
  const english = runs.flatMap(([from, to]) =>
    englishWords(text.slice(from, to)).map((w) => ({ ...w, start: w.start + from, end: w.end + from })),
  );
  return [...words.filter((w) => !inRun(w)), ...english].sort((a, b) => a.start - b.start);
}

/**
 * A word of feeling or value (joy, success, support, dreams): it carries a polarity in the English
 * model's sentiment lexicon. It says how something was, never what it was. Chinese has no such
 * lexicon here: always false.
 */
export function isEvaluative(w: TaggedWord): boolean {
  // Looked up when the word is tagged: a lone Latin word in Chinese text ("我用JWT…") goes through
  // jieba, not the English model, and has no polarity.
  return w.evaluative;
}

let abstractNouns: ReadonlySet<string> | undefined;

/**
 * An English noun whose most frequent sense is a feeling, a thought, a quality, a state or a motive
 * in WordNet's lexicographer classes ("experience", "determination", "pride", "vibe"): it says how
 * something was or what someone made of it, not what a memory is about. Chinese: always false.
 */
export function isAbstractNoun(w: TaggedWord): boolean {
  if (w.script !== "latin") return false;
  abstractNouns ??= new Set(ABSTRACT_NOUNS.split(" "));
  return abstractNouns.has(w.lemma);
}
