/**
 * A clause's words as the conflict rules read them (frame.ts): tagged (src/language/tagging/tagged-words.ts),
 * a Chinese verb joined with its complement (搬|到), a pronoun's contraction split ("I'm" → I + 'm),
 * numbers as digits ("five", 三 → 5, 3), and whether each word is content, light or temporal.
 */
import { englishNumber, parseSmallNumber } from "../number-words";
import { isContentWord } from "../salience/content-words";
import { tagWords, type TagMemo, type TaggedWord } from "../tagging/tagged-words";
import { ZH_LIGHT_VERBS, ZH_MENTAL_VERBS } from "./lexicon";

export interface Word {
  /** Lower-cased surface form. */
  surface: string;
  /** English lemma or the Chinese word. */
  lemma: string;
  cls: TaggedWord["cls"];
  content: boolean;
  /** Said of anything (want, try, get, tell, 觉得): never the predicate a frame compares. */
  light: boolean;
  /** A date, a time or a day's name (TaggedWord.temporal). */
  temporal: boolean;
}

/** Chinese complements that make one predicate with the verb before them (搬|到, 住|在, 改|到, 换|成). */
const ZH_COMPLEMENTS: ReadonlySet<string> = new Set(["到", "在", "成", "为", "进", "给"]);

/** Tagged words, a Chinese verb joined with its complement (jieba cuts 搬到 as 搬|到). */
function joinComplements(words: TaggedWord[]): TaggedWord[] {
  const out: TaggedWord[] = [];
  for (const w of words) {
    const prev = out.at(-1);
    if (
      prev &&
      prev.script === "cjk" &&
      prev.cls === "verb" &&
      prev.text.length === 1 &&
      prev.end === w.start &&
      ZH_COMPLEMENTS.has(w.text)
    ) {
      out[out.length - 1] = { ...prev, text: prev.text + w.text, lemma: prev.lemma + w.lemma, end: w.end };
    } else out.push(w);
  }
  return out;
}

/** "I'm" → I + 'm, "we've" → we + 've: the tagger may keep a pronoun and its verb as one word. */
const CONTRACTION = /^([a-z]+)('(?:m|re|s|ve|ll|d))$/;

export function wordsOf(clause: string, memo: TagMemo | undefined): Word[] {
  return joinComplements(tagWords(clause, memo))
    .filter((t) => t.cls !== "punct")
    .flatMap((t): Word[] => {
      const split = t.cls === "pron" ? CONTRACTION.exec(t.text.toLowerCase().replace(/’/g, "'")) : null;
      if (!split) return [wordOf(t)];
      const [, pronoun = "", verb = ""] = split;
      return [
        { surface: pronoun, lemma: pronoun, cls: "pron", content: false, light: true, temporal: false },
        { surface: verb, lemma: verb, cls: "function", content: false, light: true, temporal: false },
      ];
    });
}

function wordOf(t: TaggedWord): Word {
  {
    const surface = t.text.toLowerCase().replace(/’/g, "'");
    const number = parseSmallNumber(surface) ?? englishNumber(surface);
    // A number of a time ("five years ago") is when, not what.
    if (number !== undefined && t.cls === "num")
      return { surface: String(number), lemma: String(number), cls: t.cls, content: !t.temporal, light: false, temporal: t.temporal };
    const content =
      (t.cls === "noun" || t.cls === "name" || t.cls === "verb" || t.cls === "adj" || t.cls === "num" || t.cls === "other") && !t.temporal;
    return {
      surface,
      lemma: t.lemma,
      cls: t.cls,
      content,
      light:
        t.script === "cjk" && t.cls === "verb" && t.lemma.length === 1
          ? ZH_LIGHT_VERBS.has(t.lemma)
          : !isContentWord(t) || ZH_MENTAL_VERBS.has(t.lemma),
      temporal: t.temporal,
    };
  }
}

/**
 * A clause with a predicate word (a verb or an adjective) and a thing (a noun, a name, a number);
 * in Chinese any two content words, as jieba may take the verb into a noun (家养|猫, 走路|上学).
 */
export function statesSomething(clause: string, memo: TagMemo | undefined): boolean {
  const words = wordsOf(clause, memo).filter((w) => w.content);
  if (/\p{Script=Han}/u.test(clause)) return words.length >= 2;
  return (
    words.some((w) => w.cls === "verb" || w.cls === "adj") && words.some((w) => w.cls === "noun" || w.cls === "name" || w.cls === "num")
  );
}
