/**
 * Term salience for the local model: which words a text is about, from its words' parts of speech
 * (src/text/tagged-words.ts). Shared by extraction (keywords, entities, phrase) and compression
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
 * What can be an entity (docs/design.md, "The model", "What an entity is") is decided here too: names and
 * nouns, never verbs, adjectives, pronouns, interjections, numbers or dates; never a name only
 * addressed ("Thanks, Nate!", "Bart，你…": a vocative), which is provenance, not what the text is
 * about; never a noun that only stands in for something (thing, time, way, name, 东西, 时候); never a
 * noun of a fixed phrase: a measure, a unit, a word of an idiom (src/text/fixed-phrase-words.ts).
 */
import { codePointLength } from "../../text/code-points";
import { splitSentences } from "../../text/sentences";
import { isAbstractNoun, isEvaluative, tagWords, type TagMemo, type TaggedWord, type WordScript } from "../../text/tagged-words";
import { ZH_STOP_WORDS } from "../../text/stopwords-zh";
import { idiomWords, isMeasureWord } from "../../text/fixed-phrase-words";

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

/** A "Name: text" line, as the segmenter writes merged short messages. */
const SPEAKER_LABEL = /^[^:：\n]{1,40}[:：][ \t]*/;
/** Lower-case words allowed inside a name between capitalised words ("Museum of Modern Art"). */
const NAME_CONNECTORS: ReadonlySet<string> = new Set(["of", "de", "da", "del", "du", "van", "von", "la", "le"]);
const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}]{1,7}$/u;
const CAPITALISED = /^\p{Lu}/u;
const HAS_LETTER = /\p{L}/u;
const ENDS_SENTENCE = /^[.!?。！？…]+$/u;
/** What sets a vocative off after it: a comma or a dash ("Thanks, Gina - really…"). */
const COMMA = /^(?:[,，、]|[-–—]+)$/u;
/** Opening and closing brackets: what stands between them is an aside. */
const OPEN_BRACKET = /[([（【]/u;
const CLOSE_BRACKET = /[)\]）】]/u;

/**
 * English nouns that stand in for something else (a place-holder, a quantity, a span of time) and
 * name nothing a memory is about. The tagger calls them nouns; no tagger can tell this.
 */
const EN_PLACEHOLDER_NOUNS: ReadonlySet<string> = new Set(
  `thing stuff lot bit kind sort type way time moment day week month year today tonight tomorrow yesterday
  weekend morning evening night afternoon spring summer autumn winter season while part side end point something
  anything everything nothing
  someone anyone everyone somebody anybody everybody one place idea fun look chance plenty bunch couple
  piece number amount deal matter reason question answer sense feeling story
  person people other others man woman guy folk photo pic picture image selfie word name thought news advice
  offer plan mind`.split(/\s+/),
);
/** Chinese nouns of the same kind, and the light nouns the stop list keeps (东西, 事情, 时候 …). */
const ZH_PLACEHOLDER_NOUNS: ReadonlySet<string> = new Set(
  `东西 事情 事儿 情况 时候 时间 地方 方面 问题 样子 感觉 心情 办法 意思 部分 一下 有点 感受 想法`.split(/\s+/),
);
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
const CONTENT_CLASSES: ReadonlySet<string> = new Set(["name", "noun", "verb", "adj", "num", "other"]);

/**
 * Light verbs and evaluative adjectives: content words to a tagger, but said of anything
 * (get, make, good, great, 觉得, 可以). They stay searchable in the text; they are not keywords.
 */
const EN_LIGHT: ReadonlySet<string> = new Set(
  `be have do get go make take give put keep let say tell ask talk know think want like need see look seem feel try mean
  use find guess hope wish become happen sound come thank love glad sure good great nice cool awesome amazing wonderful
  fantastic fine bad right true okay real really able lovely super best better big small little new old last next
  first other same own much many lot more most such`.split(/\s+/),
);

/** Removes speaker labels when every line of a multi-line text carries one. */
export function stripSpeakerLabels(text: string): string {
  const lines = text.split("\n");
  if (lines.length < 2 || !lines.every((l) => l.trim() === "" || SPEAKER_LABEL.test(l))) return text;
  return lines.map((l) => l.replace(SPEAKER_LABEL, "")).join("\n");
}

/** Whether a word counts as a content word: a keyword, a compression term, a conflict word. */
export function isContentWord(w: TaggedWord): boolean {
  if (!CONTENT_CLASSES.has(w.cls) || !/[\p{L}\p{N}]/u.test(w.text)) return false;
  if (w.script === "cjk") return !ZH_STOP_WORDS.has(w.lemma);
  if (w.script === "number") return true;
  return w.lemma.length >= 2 && (w.cls === "name" || !EN_LIGHT.has(w.lemma));
}

export interface AnalyzeOptions {
  /** Keep "Name: " line labels as text (a summary quotes its lines whole). */
  keepLabels?: boolean;
  /** The agent's memo of tagged lines (local-tag-memo.ts). */
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

/**
 * Length of the proper name starting at word i: consecutive names of one sentence, separated by a
 * single space (Latin) or nothing (Chinese), with connectors between two name words ("Museum of
 * Modern Art"). A Chinese name is a name-tagged word of two characters or more that is not said
 * of something (after 很, before a clause-final 了: jieba calls 明白 and 太棒了 names).
 */
function nameRun(words: readonly TaggedWord[], i: number): number {
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
function quotedNames(body: string, words: readonly TaggedWord[]): [number, number][] {
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
function predicative(words: readonly TaggedWord[], i: number): boolean {
  const w = words[i];
  const before = words[i - 1];
  const after = words[i + 1];
  if (w === undefined) return false;
  if (before !== undefined && before.end === w.start && ZH_DEGREE.has(before.text)) return true;
  if (/[了的吗呢啊吧呀]$/u.test(w.text)) return true;
  return after !== undefined && after.start === w.end && ZH_AFTER_PREDICATE.has(after.text) && (words[i + 2]?.cls ?? "punct") === "punct";
}

function adjacent(a: TaggedWord, b: TaggedWord): boolean {
  return b.start === a.end || (a.script !== "cjk" && b.script !== "cjk" && b.start === a.end + 1);
}

/**
 * A name addressed, not talked about: at the start of its sentence or after a greeting, and
 * followed by a comma, the sentence's end or an exclamation ("Nate, did you…", "Thanks, Nate!",
 * "Hey Mel!", "Glad to hear it, Nate."). After a comma it must close the sentence and follow no
 * other name ("Berlin, Germany" is a place).
 */
function vocative(words: readonly TaggedWord[], from: number, to: number): boolean {
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
function slot(words: readonly TaggedWord[], from: number, to: number): boolean {
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

/**
 * Length of the noun compound starting at word i: adjacent nouns and names ending in a noun, in one
 * sentence ("adoption agency", "LGBTQ community", 冰淇淋店 from 冰淇淋|店), at most four words and,
 * in Chinese, eight characters.
 */
function compoundRun(words: readonly TaggedWord[], i: number): number {
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

function isEntityCompound(words: readonly TaggedWord[], from: number, to: number): boolean {
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
function isEntityNoun(words: readonly TaggedWord[], i: number): boolean {
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

/**
 * A word that names nothing: a place-holder noun, one of feeling or value (isEvaluative), or an
 * abstract noun (isAbstractNoun). An abstract noun may still modify the head of a compound
 * ("mentorship program"): compounds test their words with standsIn.
 */
function isPlaceholder(w: TaggedWord): boolean {
  return standsIn(w) || isAbstractNoun(w);
}

/** A place-holder noun or one of feeling or value: never part of a compound. */
function standsIn(w: TaggedWord): boolean {
  if (w.script === "cjk") return ZH_PLACEHOLDER_NOUNS.has(w.lemma) || ZH_STOP_WORDS.has(w.lemma);
  return EN_PLACEHOLDER_NOUNS.has(w.lemma) || isEvaluative(w);
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
