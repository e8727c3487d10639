/**
 * Words with their part of speech, for the parts of the local model that need to know what a word
 * is (docs/design.md, "Models": keywords, entities, phrases, conflicts, query keywords): Chinese through
 * jieba (chinese-tagger.ts), English through winkNLP (english-tagger.ts), both mapped to one small
 * set of word classes. A text with CJK characters goes to jieba as a whole (it keeps Latin words
 * such as "JWT" whole, tagged `eng`); any other text to wink.
 *
 * Full-width letters and digits (ＡＬＩＣＥ, ３) are folded to ASCII first, one code unit for one, so offsets stay
 * those of the input.
 */
import { ABSTRACT_NOUNS } from "../tables/abstract-nouns";
import { isCalendarWord } from "../time/calendar-words";
import { tagChinese } from "./chinese-tagger";
import { englishTaggerLoaded, loadEnglishTagger, tagEnglish, type EnglishWord } from "./english-tagger";
import { EVALUATIVE_NOUNS } from "../tables/evaluative-nouns";
import { splitSentences } from "../sentences";

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

/**
 * A memo for tagging (the local model keeps one per agent, src/language/tagging/tag-memo.ts): the
 * tags of a line already seen. What it returns is read, never changed; tagWords copies the words it
 * gives out.
 */
export interface TagMemo {
  line(line: string, tag: (line: string) => readonly TaggedWord[]): readonly TaggedWord[];
}

const CJK = /[\p{Script=Han}\u3040-\u30ff\u31f0-\u31ff\uac00-\ud7af]/u;
const LATIN = /\p{Script=Latin}/u;
const DIGITS = /^\p{N}[\p{N}.,:%]*$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const FULL_WIDTH = /[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/gu;
const CAPITALISED = /^\p{Lu}/u;

/**
 * Chat words the English model tags as nouns or names ("Thanks", "Yea", "lol"): they greet, thank
 * or agree, and name nothing.
 */
const CHAT_INTERJECTIONS: ReadonlySet<string> = new Set(
  `thanks thank thx ty yea yeah yep yup nope nah ok okay hi hey hello bye wow woah whoa omg lol haha hahaha hehe aww
  yay ugh hmm oh ooh oof ah congrats congratulations cheers please sorry welcome btw`.split(/\s+/),
);
/** Spoken contractions of a verb and its particle ("gonna" = going to): never a thing. */
const SPOKEN_CONTRACTIONS: ReadonlySet<string> = new Set(`gonna gotta wanna kinda sorta dunno lemme gimme`.split(/\s+/));
/** A letter said three times or more ("sooo", "yesss"): drawn-out speech, an intensifier. */
const DRAWN_OUT = /(\p{L})\1\1/u;
/** Determiners and possessives: a "noun" right before one is a verb taking an object ("shares a photo"). */
const DETERMINERS: ReadonlySet<string> = new Set(`a an the these those my your his her our their`.split(/\s+/));
/** Object pronouns: a "noun" right before one is a verb ("picturing it"). */
const OBJECT_PRONOUNS: ReadonlySet<string> = new Set(`it them me him us`.split(/\s+/));

/**
 * A word the model tagged a noun that takes an object, so is a verb: before a determiner ("shares a
 * photo"), an object pronoun ("picturing it"), or, ending in -ing, before a plural noun ("offering
 * workshops"; a gerund before a singular noun names a kind: "painting class").
 */
/**
 * "Mina lives in Lisbon": a "plural noun" right after a name that opens the clause, before a
 * preposition, determiner, pronoun or adverb, is the name's verb (the model tags it NNS).
 */
function verbAfterName(
  w: EnglishWord,
  name: EnglishWord | undefined,
  before: EnglishWord | undefined,
  next: EnglishWord | undefined,
): boolean {
  if (!/[a-z]s$/.test(w.text) || name?.pos !== "PROPN" || next === undefined) return false;
  if (before !== undefined && before.pos !== "PUNCT") return false;
  return next.pos === "ADP" || next.pos === "DET" || next.pos === "PRON" || next.pos === "ADV" || next.pos === "NOUN";
}

function takesObject(w: EnglishWord, next: EnglishWord | undefined): boolean {
  if (next === undefined) return false;
  const lower = next.text.toLowerCase();
  if (DETERMINERS.has(lower) || OBJECT_PRONOUNS.has(lower)) return true;
  return /ing$/i.test(w.text) && next.pos === "NOUN" && next.lemma !== lower;
}
/** Pronoun contractions the English model sometimes leaves whole and calls a name ("I'm"). */
const PRONOUN_CONTRACTION = /^(?:i|you|we|they|he|she|it|that|there|who)['’](?:m|re|ve|ll|d|s)$/i;

const UD_CLASS: Readonly<Record<string, WordClass>> = {
  PROPN: "name",
  NOUN: "noun",
  VERB: "verb",
  ADJ: "adj",
  ADV: "adv",
  NUM: "num",
  PRON: "pron",
  DET: "function",
  ADP: "function",
  AUX: "function",
  CCONJ: "function",
  SCONJ: "function",
  PART: "function",
  INTJ: "interjection",
  PUNCT: "punct",
  SYM: "punct",
};

/** jieba's tags by their first letter, the exceptions listed before (ICTCLAS conventions). */
const JIEBA_EXACT: Readonly<Record<string, WordClass>> = {
  nr: "name",
  nrfg: "name",
  nrt: "name",
  ns: "name",
  nt: "name",
  nz: "name",
  vn: "noun",
  l: "other",
  i: "other",
  an: "noun",
  ad: "adv",
  vd: "adv",
  eng: "other",
  x: "other",
};
const JIEBA_FIRST: Readonly<Record<string, WordClass>> = {
  n: "noun",
  s: "noun",
  j: "noun",
  t: "noun",
  v: "verb",
  a: "adj",
  b: "adj",
  z: "adj",
  d: "adv",
  m: "num",
  r: "pron",
  p: "function",
  c: "function",
  u: "function",
  f: "function",
  q: "function",
  k: "function",
  h: "function",
  e: "interjection",
  y: "interjection",
  o: "interjection",
};

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

function scriptOf(text: string): WordScript {
  if (CJK.test(text)) return "cjk";
  if (DIGITS.test(text)) return "number";
  return LATIN.test(text) ? "latin" : "other";
}

function englishWords(text: string): TaggedWord[] {
  if (!LETTER_OR_DIGIT.test(text)) return [];
  const tagged = tagEnglish(text);
  return tagged.map((w, i) => {
    const lower = w.text.toLowerCase();
    let cls = UD_CLASS[w.pos] ?? "other";
    if (CHAT_INTERJECTIONS.has(lower) || DRAWN_OUT.test(lower)) cls = "interjection";
    else if (PRONOUN_CONTRACTION.test(w.text)) cls = "pron";
    else if (SPOKEN_CONTRACTIONS.has(lower)) cls = "function";
    else if (cls === "noun" && (takesObject(w, tagged[i + 1]) || verbAfterName(w, tagged[i - 1], tagged[i - 2], tagged[i + 1])))
      cls = "verb";
    const lemma = cls === "name" ? lower.replace(/['’]s$/, "") : w.lemma;
    const temporal = w.entity === "DATE" || w.entity === "TIME" || w.entity === "DURATION" || isCalendarWord(lower);
    const script = scriptOf(w.text);
    // Nouns of feeling or value carry a polarity in the model's sentiment lexicon (isEvaluative).
    const evaluative = (cls === "noun" || cls === "name") && script === "latin" && (hasPolarity(lemma) || hasPolarity(lower));
    return {
      text: w.text,
      start: w.start,
      end: w.end,
      cls,
      tag: w.pos,
      lemma,
      script,
      sentence: 0,
      negated: w.negated,
      temporal,
      evaluative,
    };
  });
}

/** Aspect and complement particles: a 名动词 (vn: 设计, 比赛) right before one is used as a verb. */
const ZH_VERB_FOLLOWERS: ReadonlySet<string> = new Set(["了", "着", "过", "得", "一下"]);
/** Localisers: 在 X 上/中/里 makes X a place or an occasion (在生日派对上, 在比赛中). */
const ZH_LOCALISERS: ReadonlySet<string> = new Set(["上", "中", "里", "内", "外", "前", "后", "旁", "边", "时"]);
/** Verbs whose object is a game or an activity, whatever its own tag (玩捉迷藏, 玩荡秋千). */
const ZH_PLAY_VERBS: ReadonlySet<string> = new Set(["玩", "玩儿", "踢", "打", "下", "跳", "练", "练习", "学", "学习", "参加"]);

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

/** The most common Chinese surnames: 老周, 小王 and 张总 name a person. */
const ZH_SURNAMES = new Set(
  Array.from(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤",
  ),
);
/** Titles and roles that follow a surname (张总, 王老师, 李医生). */
const ZH_TITLES = new Set([
  "总",
  "老师",
  "经理",
  "医生",
  "大夫",
  "先生",
  "女士",
  "小姐",
  "阿姨",
  "叔叔",
  "老板",
  "教授",
  "主任",
  "同学",
  "师傅",
  "律师",
]);

/**
 * 老周, 小王 (老/小 + surname) and 张|总 (surname + title, cut apart by jieba) as one name; not a
 * surname character used as a preposition (他向|老师说明: "to the teacher"; see preposition).
 */
/**
 * A one-character word jieba tagged a preposition (向, 于) right after a subject or an adverb
 * (他向老师, 又向老师): it opens a prepositional phrase. At a clause's start or after 和 it may
 * still be a surname (向总今天来了吗, 我和向总开会), which jieba tags the same way.
 */
function preposition(w: TaggedWord, before: TaggedWord | undefined): boolean {
  if (w.tag !== "p" || before === undefined || before.end !== w.start) return false;
  return before.cls === "pron" || before.cls === "noun" || before.cls === "name" || before.cls === "adv";
}

function personReferences(words: TaggedWord[]): TaggedWord[] {
  const out: TaggedWord[] = [];
  for (const w of words) {
    const prev = out.at(-1);
    if (/^[老小]\p{Script=Han}$/u.test(w.text) && ZH_SURNAMES.has(w.text.charAt(1))) {
      out.push({ ...w, cls: "name", temporal: false });
    } else if (
      prev &&
      prev.end === w.start &&
      prev.text.length === 1 &&
      ZH_SURNAMES.has(prev.text) &&
      !preposition(prev, out.at(-2)) &&
      ZH_TITLES.has(w.text)
    ) {
      out[out.length - 1] = {
        ...prev,
        text: prev.text + w.text,
        lemma: prev.lemma + w.lemma,
        end: w.end,
        cls: "name",
        tag: "nr",
        temporal: false,
      };
    } else out.push(w);
  }
  return out;
}

function chineseWords(text: string): TaggedWord[] {
  const words = personReferences(tagChineseWords(text));
  // Context fixes of jieba's tags: a 名动词 followed by an aspect particle is a verb (尝试了), the
  // object of a play verb is an activity (玩捉迷藏), a verb right after a measure word is a thing
  // (那场舞).
  words.forEach((w, i) => {
    const before = words[i - 1];
    const after = words[i + 1];
    // A 名动词 before an aspect particle or before a noun it modifies is a verb (尝试了, 有关角色).
    const next = after !== undefined && after.start === w.end ? after : undefined;
    if (w.tag === "vn" && next !== undefined && (ZH_VERB_FOLLOWERS.has(next.text) || (next.tag.startsWith("n") && next.text.length >= 2)))
      w.cls = "verb";
    if (w.cls === "other" && w.text.length >= 2 && before?.text === "在" && next !== undefined && ZH_LOCALISERS.has(next.text))
      w.cls = "noun";
    if (before === undefined || before.end !== w.start) return;
    if ((w.cls === "verb" || w.cls === "other") && w.text.length >= 2 && ZH_PLAY_VERBS.has(before.text) && w.tag !== "vn") w.cls = "noun";
    if (w.cls === "verb" && (before.tag === "mq" || before.tag === "q")) w.cls = "noun";
  });
  return words;
}

function tagChineseWords(text: string): TaggedWord[] {
  const out: TaggedWord[] = [];
  let at = 0;
  for (const { word, tag } of tagChinese(text)) {
    const start = at;
    at += word.length;
    if (word.trim() === "") continue;
    out.push({
      text: word,
      start,
      end: at,
      cls: chineseClass(word, tag),
      tag,
      lemma: word.toLowerCase(),
      script: scriptOf(word),
      sentence: 0,
      negated: false,
      temporal: tag === "t" || tag === "tg" || isCalendarWord(word),
      evaluative: false,
    });
  }
  return out;
}

function chineseClass(word: string, tag: string): WordClass {
  if (tag === "eng") return CAPITALISED.test(word) || /\d/.test(word) ? "name" : "noun";
  if (tag === "x" || tag === "m") {
    if (DIGITS.test(word)) return "num";
    if (!LETTER_OR_DIGIT.test(word)) return "punct";
  }
  return JIEBA_EXACT[tag] ?? JIEBA_FIRST[tag.charAt(0)] ?? "other";
}

let evaluativeNouns: ReadonlySet<string> | undefined;

/** A noun with a polarity in the English model's sentiment lexicon (evaluative-nouns.ts). */
function hasPolarity(word: string): boolean {
  evaluativeNouns ??= new Set(EVALUATIVE_NOUNS.split(" "));
  return evaluativeNouns.has(word);
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
