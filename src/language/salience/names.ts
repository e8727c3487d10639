/**
 * Proper names in tagged words: runs of names ("New York", "Museum of Modern Art", 老周), short
 * quoted titles (《三体》, "Connected LGBTQ Activists"), and the tests that keep a word out: a
 * Chinese word said of something (很明白, 太棒了), a name only addressed ("Thanks, Nate!": a
 * vocative, provenance, not what a text is about).
 */
import { codePointLength } from "../../text/code-points";
import type { TaggedWord } from "../tagging/tagged-words";
import { ZH_STOP_WORDS } from "../tokens/stopwords-zh";
import { EN_PLACEHOLDER_NOUNS, ZH_PLACEHOLDER_NOUNS } from "./placeholders";

/** Lower-case words allowed inside a name between capitalised words ("Museum of Modern Art"). */
const NAME_CONNECTORS: ReadonlySet<string> = new Set(["of", "de", "da", "del", "du", "van", "von", "la", "le"]);
export const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}]{1,7}$/u;
export const CAPITALISED = /^\p{Lu}/u;
export const HAS_LETTER = /\p{L}/u;
const ENDS_SENTENCE = /^[.!?。！？…]+$/u;
/** What sets a vocative off after it: a comma or a dash ("Thanks, Gina - really…"). */
const COMMA = /^(?:[,，、]|[-–—]+)$/u;
/**
 * Degree adverbs: a word right after one is said of something (很紧张, 太棒了), an adjective or a
 * verb whatever the dictionary calls it (jieba tags 明白, 温顺 and 太棒了 as names).
 */
const ZH_DEGREE: ReadonlySet<string> = new Set(
  `很 太 真 好 非常 特别 十分 挺 更 最 超 超级 比较 有点 多么 那么 这么 真是 如此 相当 极其 蛮`.split(/\s+/),
);
/** Sentence-final particles after which a word is a predicate, not a thing (明白了, 太棒了). */
const ZH_AFTER_PREDICATE: ReadonlySet<string> = new Set(["了", "啦", "过", "着"]);
/** Greetings and thanks that a vocative name follows (嗨，Bart / 谢谢你，小明). */
const ZH_GREETINGS: ReadonlySet<string> = new Set(["嗨", "嘿", "你好", "您好", "谢谢", "哈喽", "早上好", "晚上好", "亲爱的"]);

const NAME_CLASSES: ReadonlySet<string> = new Set(["name"]);

/**
 * Length of the proper name starting at word i: consecutive names of one sentence, separated by a
 * single space (Latin) or nothing (Chinese), with connectors between two name words ("Museum of
 * Modern Art"). A Chinese name is a name-tagged word of two characters or more that is not said
 * of something (after 很, before a clause-final 了: jieba calls 明白 and 太棒了 names).
 */
export function nameRun(words: readonly TaggedWord[], i: number): number {
  const first = words[i];
  if (first === undefined || !isNameWord(words, i)) return 0;
  let len = 1;
  for (let j = i + 1; j < words.length; j++) {
    const t = words[j];
    const prev = words[j - 1];
    if (t === undefined || prev === undefined || t.sentence !== prev.sentence || !adjacent(prev, t)) break;
    const next = words[j + 1];
    const connects = NAME_CONNECTORS.has(t.text) && next !== undefined && isNameWord(words, j + 1) && adjacent(t, next);
    if (!isNameWord(words, j) && !connects) break;
    len++;
  }
  return len;
}

function isNameWord(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  if (w === undefined || !HAS_LETTER.test(w.text)) return false;
  if (w.script !== "cjk") {
    // A place-holder noun opening a sentence is capitalised for that alone ("Time flies", "Name's Luna").
    if (words[i - 1]?.sentence !== w.sentence && EN_PLACEHOLDER_NOUNS.has(w.text.toLowerCase())) return false;
    return NAME_CLASSES.has(w.cls) ? CAPITALISED.test(w.text) || ACRONYM.test(w.text) : capitalisedBesideName(words, i);
  }
  if (!NAME_CLASSES.has(w.cls)) return false;
  return codePointLength(w.text) >= 2 && !predicative(words, i) && !ZH_STOP_WORDS.has(w.lemma) && !ZH_PLACEHOLDER_NOUNS.has(w.lemma);
}

/**
 * A capitalised word inside a sentence that the tagger did not call a name, next to one that it
 * did: part of that name ("Door Dash", "Connected LGBTQ Activists").
 */
function capitalisedBesideName(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  const before = words[i - 1];
  if (w === undefined || !CAPITALISED.test(w.text) || !/^[\p{L}'’-]+$/u.test(w.text) || before?.sentence !== w.sentence) return false;
  if (w.temporal || !(w.cls === "noun" || w.cls === "adj" || w.cls === "verb" || w.cls === "other")) return false;
  if (before.cls === "punct" && !COMMA.test(before.text)) return false;
  return capitalisedName(words[i + 1], w.sentence) || capitalisedName(before, w.sentence);
}

function capitalisedName(x: TaggedWord | undefined, sentence: number): boolean {
  return x !== undefined && x.sentence === sentence && x.cls === "name" && CAPITALISED.test(x.text);
}

/** Quotation and title marks whose content is a name (《三体》, “星期五”, "Connected LGBTQ Activists"). */
const QUOTES: readonly [string, string][] = [
  ["《", "》"],
  ["“", "”"],
  ["「", "」"],
  ["『", "』"],
  ['"', '"'],
];

/**
 * Word ranges of short quoted spans: a title in 《》 always, other quotes when they hold at most
 * twelve Chinese characters or five words (a longer quote is speech, not a name).
 */
export function quotedNames(body: string, words: readonly TaggedWord[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [open, close] of QUOTES) {
    let at = body.indexOf(open);
    while (at >= 0) {
      const end = body.indexOf(close, at + 1);
      if (end < 0) break;
      const from = words.findIndex((w) => w.start > at);
      const to = words.findIndex((w) => w.start >= end);
      const inner = body.slice(at + 1, end);
      const latin = !/\p{Script=Han}/u.test(inner);
      // A Latin quote is a name when its words are capitalised ("Connected LGBTQ Activists"), else it is speech.
      const titled = inner.split(/\s+/).every((x) => CAPITALISED.test(x) || NAME_CONNECTORS.has(x));
      const short = open === "《" || (latin ? titled && inner.split(/\s+/).length <= 5 : codePointLength(inner) <= 12);
      if (from >= 0 && to > from && short && HAS_LETTER.test(inner) && !/[\n。！？.!?]/u.test(inner)) out.push([from, to]);
      at = body.indexOf(open, end + 1);
    }
  }
  return out;
}

/** A Chinese word said of something: right after a degree adverb, or before a clause-final 了. */
export function predicative(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  const before = words[i - 1];
  const after = words[i + 1];
  if (w === undefined) return false;
  if (before !== undefined && before.end === w.start && ZH_DEGREE.has(before.text)) return true;
  if (/[了的吗呢啊吧呀]$/u.test(w.text)) return true;
  return after !== undefined && after.start === w.end && ZH_AFTER_PREDICATE.has(after.text) && (words[i + 2]?.cls ?? "punct") === "punct";
}

export function adjacent(a: TaggedWord, b: TaggedWord): boolean {
  return b.start === a.end || (a.script !== "cjk" && b.script !== "cjk" && b.start === a.end + 1);
}

/**
 * A name addressed, not talked about: at the start of its sentence or after a greeting, and
 * followed by a comma, the sentence's end or an exclamation ("Nate, did you…", "Thanks, Nate!",
 * "Hey Mel!", "Glad to hear it, Nate."). After a comma it must close the sentence and follow no
 * other name ("Berlin, Germany" is a place).
 */
export function vocative(words: readonly TaggedWord[], from: number, to: number): boolean {
  const first = words[from];
  const before = words[from - 1];
  const after = words[to];
  if (first === undefined) return false;
  const closes = !inSentence(after, first.sentence) || (after !== undefined && (ENDS_SENTENCE.test(after.text) || COMMA.test(after.text)));
  if (!closes) return false;
  if (!inSentence(before, first.sentence) || before === undefined) return true;
  if (before.cls === "interjection" || ZH_GREETINGS.has(before.text)) return true;
  if (!COMMA.test(before.text)) return false;
  const ends = !inSentence(after, first.sentence) || (after !== undefined && ENDS_SENTENCE.test(after.text));
  const beforeComma = words[from - 2];
  const greeting = beforeComma !== undefined && (beforeComma.cls === "interjection" || ZH_GREETINGS.has(beforeComma.text));
  return greeting || (ends && beforeComma?.cls !== "name");
}

/**
 * A template's slot, not a name: a capitalised word alone in square, curly or angle brackets, a
 * determiner or a pronoun allowed before it ("[Name]", "[Your Name]", "{City}").
 */
export function slot(words: readonly TaggedWord[], from: number, to: number): boolean {
  if (!CAPITALISED.test(words[from]?.text ?? "")) return false;
  let j = from - 1;
  while (words[j]?.cls === "pron" || words[j]?.cls === "function") j--;
  const open = words[j]?.text;
  const close = words[to]?.text;
  return (open === "[" && close === "]") || (open === "{" && close === "}") || (open === "<" && close === ">");
}

function inSentence(w: TaggedWord | undefined, sentence: number): boolean {
  return w !== undefined && w.sentence === sentence;
}
