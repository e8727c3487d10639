/**
 * What can be an entity (docs/design.md, "The model", "What an entity is"): names and nouns, never
 * verbs, adjectives, pronouns, interjections, numbers or dates; never a name only addressed
 * ("Thanks, Nate!", "Bart，你…": a vocative, names.ts), which is provenance, not what the text is
 * about; never a noun that only stands in for something (thing, time, way, name, 东西, 时候:
 * placeholders.ts); never a noun of a fixed phrase: a measure, a unit, a word of an idiom
 * (fixed-phrase-words.ts). Noun compounds ("adoption agency", 冰淇淋店) are found here too.
 */
import { codePointLength } from "../../text/code-points";
import type { TaggedWord } from "../tagging/tagged-words";
import { ZH_STOP_WORDS } from "../tokens/stopwords-zh";
import { adjacent, HAS_LETTER, predicative, vocative } from "./names";
import { isMeasureWord } from "./fixed-phrase-words";
import { isPlaceholder, standsIn } from "./placeholders";

/**
 * Length of the noun compound starting at word i: adjacent nouns and names ending in a noun, in one
 * sentence ("adoption agency", "LGBTQ community", 冰淇淋店 from 冰淇淋|店), at most four words and,
 * in Chinese, eight characters.
 */
export function compoundRun(words: readonly TaggedWord[], i: number): number {
  const first = words[i];
  // A one-character Chinese adjective makes a word with the noun after it (新同学, 老朋友).
  const modifier = first !== undefined && first.script === "cjk" && first.tag === "a" && first.text.length === 1;
  if (!isCompoundPart(first) && !(modifier && isCompoundPart(words[i + 1]) && words[i + 1]?.start === first.end)) return 0;
  let len = 1;
  let chars = codePointLength(words[i]?.text ?? "");
  for (let j = i + 1; j < words.length && len < 4; j++) {
    const t = words[j];
    const prev = words[j - 1];
    if (t === undefined || prev === undefined || !isCompoundPart(t) || t.sentence !== prev.sentence || !adjacent(prev, t)) break;
    if (t.script !== prev.script) break;
    chars += codePointLength(t.text);
    if (t.script === "cjk" && chars > 8) break;
    len++;
  }
  // The head is the last word: a compound ends in a common noun (not "Caroline Melanie").
  while (len > 1 && words[i + len - 1]?.cls !== "noun") len--;
  return len;
}

function isCompoundPart(w: TaggedWord | undefined): boolean {
  return w !== undefined && (w.cls === "noun" || w.cls === "name") && !w.temporal && HAS_LETTER.test(w.text) && !standsIn(w);
}

export function isEntityCompound(words: readonly TaggedWord[], from: number, to: number): boolean {
  const head = words[to - 1];
  if (head === undefined || vocative(words, from, to) || isPlaceholder(head) || describes(words, from) || isMeasureWord(words, to - 1))
    return false;
  return !hyphenated(words, from) && !hyphenated(words, to - 1);
}

/**
 * A Latin word joined by a hyphen to the word before or after it ("mood-booster", "self-care"): a
 * piece of a longer word, never an entity on its own.
 */
function hyphenated(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  if (w === undefined || w.script !== "latin") return false;
  const glued = (a: TaggedWord | undefined, b: TaggedWord | undefined) => a !== undefined && b !== undefined && a.end === b.start;
  const before = words[i - 1];
  const after = words[i + 1];
  return (
    (before?.text === "-" && glued(before, w) && glued(words[i - 2], before)) ||
    (after?.text === "-" && glued(w, after) && glued(after, words[i + 2]))
  );
}

/** Verbs whose complement says how something is ("feel cozy", "seem fine"): a bare word after one is an adjective. */
const LINKING_VERBS: ReadonlySet<string> = new Set(["feel", "seem", "sound", "look", "become"]);

/**
 * An English word the tagger called a noun where only an adjective fits: right after a linking
 * verb ("feel cozy"), or joined by "and"/"or" to an adjective before it ("liberated and
 * empowered").
 */
function adjectival(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  const before = words[i - 1];
  const next = words[i + 1];
  if (w === undefined || before === undefined || w.script !== "latin" || w.cls !== "noun") return false;
  if (next !== undefined && next.sentence === w.sentence && next.cls === "noun") return false;
  if (before.cls === "verb" && LINKING_VERBS.has(before.lemma)) return true;
  return (before.lemma === "and" || before.lemma === "or") && words[i - 2]?.cls === "adj";
}

/**
 * "It's been a rollercoaster", "That was a big hurdle", "What an amazing journey!": an English noun
 * phrase opened by an indefinite article right after a copula or an exclamative "what" (adverbs
 * allowed between: "quite a journey") is a predicate: it says what something was like, not what
 * the text is about. The same noun used elsewhere in the text as an argument still counts.
 */
function describes(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  if (w === undefined || w.script !== "latin") return false;
  let j = i - 1;
  while (words[j]?.cls === "adj" || words[j]?.cls === "adv") j--;
  const article = words[j];
  if (article === undefined || article.sentence !== w.sentence || !/^an?$/i.test(article.text)) return false;
  let k = j - 1;
  while (words[k]?.cls === "adv") k--;
  const before = words[k];
  return before !== undefined && before.sentence === w.sentence && (before.lemma === "be" || before.lemma === "what");
}

/** A single noun that names a thing (see the module comment). */
export function isEntityNoun(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  if (w === undefined || w.temporal || isPlaceholder(w) || formula(words, i) || describes(words, i) || isMeasureWord(words, i))
    return false;
  if (hyphenated(words, i) || adjectival(words, i)) return false;
  if (w.script === "cjk") {
    const long = codePointLength(w.text) >= 2 || isMeasured(words, i);
    return long && !predicative(words, i) && !ZH_STOP_WORDS.has(w.lemma);
  }
  if (w.cls === "name") return false; // a lower-case "name" (jieba's `eng` in lower case is a noun)
  return w.lemma.length >= 3;
}

/** A one-character Chinese thing counted by a measure word (那场舞, 一本书). */
function isMeasured(words: readonly TaggedWord[], i: number): boolean {
  const before = words[i - 1];
  const w = words[i];
  return w !== undefined && before !== undefined && before.end === w.start && (before.tag === "mq" || before.tag === "q");
}

/** "No worries!", "No prob.": a noun after a clause-opening "no" that closes the clause is a formula. */
function formula(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  const no = words[i - 1];
  const before = words[i - 2];
  const after = words[i + 1];
  if (w === undefined || no === undefined || no.text.toLowerCase() !== "no") return false;
  const opens = before === undefined || before.sentence !== no.sentence || before.cls === "punct" || before.cls === "interjection";
  const closes = after === undefined || after.sentence !== w.sentence || after.cls === "punct";
  return opens && closes;
}
