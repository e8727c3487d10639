/**
 * Chinese words through jieba (chinese-tagger.ts), mapped to the word classes (word-classes.ts) by
 * jieba's tags (ICTCLAS conventions), with the fixes of its cuts and tags that conversation needs:
 * 老周, 小王 and 张总 are one name; a 名动词 before an aspect particle is a verb (尝试了); the object
 * of a play verb is an activity (玩捉迷藏); a verb after a measure word is a thing (那场舞).
 */
import { isCalendarWord } from "../time/calendar-words";
import { tagChinese } from "./chinese-tagger";
import { DIGITS, LETTER_OR_DIGIT, scriptOf, type TaggedWord, type WordClass } from "./word-classes";

const CAPITALISED = /^\p{Lu}/u;

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

/** Aspect and complement particles: a 名动词 (vn: 设计, 比赛) right before one is used as a verb. */
const ZH_VERB_FOLLOWERS: ReadonlySet<string> = new Set(["了", "着", "过", "得", "一下"]);
/** Localisers: 在 X 上/中/里 makes X a place or an occasion (在生日派对上, 在比赛中). */
const ZH_LOCALISERS: ReadonlySet<string> = new Set(["上", "中", "里", "内", "外", "前", "后", "旁", "边", "时"]);
/** Verbs whose object is a game or an activity, whatever its own tag (玩捉迷藏, 玩荡秋千). */
const ZH_PLAY_VERBS: ReadonlySet<string> = new Set(["玩", "玩儿", "踢", "打", "下", "跳", "练", "练习", "学", "学习", "参加"]);

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
 * A one-character word jieba tagged a preposition (向, 于) right after a subject or an adverb
 * (他向老师, 又向老师): it opens a prepositional phrase. At a clause's start or after 和 it may
 * still be a surname (向总今天来了吗, 我和向总开会), which jieba tags the same way.
 */
function preposition(w: TaggedWord, before: TaggedWord | undefined): boolean {
  if (w.tag !== "p" || before === undefined || before.end !== w.start) return false;
  return before.cls === "pron" || before.cls === "noun" || before.cls === "name" || before.cls === "adv";
}
/**
 * 老周, 小王 (老/小 + surname) and 张|总 (surname + title, cut apart by jieba) as one name; not a
 * surname character used as a preposition (他向|老师说明: "to the teacher"; see preposition).
 */
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

/** The words of a line with Chinese in it, as jieba cuts and tags them, with their classes. */
export function chineseWords(text: string): TaggedWord[] {
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
