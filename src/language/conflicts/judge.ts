/**
 * The local model's conflict judgement (docs/design.md, "Memory operations", conflicts on write): transparent rules
 * over tagged words (src/language/tagging/tagged-words.ts), with only the world knowledge WordNet holds
 * (noun-kinds.ts: which thing is a kind of which, which person noun denies a habit). A pair is an update or a
 * contradiction only when both memories say something about the same subject and the same
 * attribute, with a different value or a negation of it. So each text is cut into clauses, and
 * only clauses that state something get a frame: a question asserts nothing, and neither does a
 * clause without a predicate (thanks, greetings, "No worries!", "Black coffee, and no lunch
 * meetings"). A frame holds:
 *
 * - the subject: the words before the predicate; I/we/my (我, 我们, 我家) stand for the speaker of
 *   the text ("Alice: I moved…"), you (你) for the other speaker of the pair;
 * - the predicate: a word of the slot lexicon below (lives/moved; works at/job, lost my job;
 *   likes/hates; favourite; married/single; has; age), a thing's place or time ("is in the mill",
 *   "is on Monday"), a state (很紧张, "is nervous"), else the clause's main verb (its lemma), else a
 *   copula;
 * - the object: the content words after it; negation; markers of change ("now", "moved", 现在,
 *   搬到, 换) and of the past ("used to", 以前); a time both texts anchor to (今年, "this year").
 *
 * Then, for the most telling pair of clauses (priority contradiction, update, same, unrelated):
 *
 * 1. different subjects (no word in common) → unrelated; a second speaker's "I" is another person;
 * 2. the same slot and the same object: same polarity → same; opposite polarity (negation, or an
 *    antonym: likes/hates) → update when the later says it changed, else contradiction;
 * 3. the same slot, different objects: a single-valued slot (residence, employer, favourite,
 *    marital state, age) → update when one speaker says it again (a change over time is not a
 *    contradiction), contradiction when another speaker says otherwise without a change, or when
 *    both anchor to the same time ("今年十岁" / "今年十二岁"); many-valued (likes tea, likes
 *    coffee; has a dog, has a cat) → unrelated, unless the later counts again with a change ("two
 *    cats now");
 * 4. no common slot: the same main verb with the same object → same, or contradiction/update on
 *    opposite polarity; the same verb with another object → update only when the later says it
 *    changed ("now drives a Honda"); a copula "is X" → "is now Y" → update; anything else → unrelated;
 * 5. an explicit past ("used to live in Rome") never updates or contradicts: both hold;
 * 6. a reply by the other speaker that opens by denying ("不对", "No, …", "That's not right") and
 *    shares the predicate contradicts;
 * 7. a denial of a kind covers its members ("no pets" / "a dog", "eats no meat" / "eats steak");
 *    "never" and "my whole life" hold for all time, so a dated past is no excuse against them;
 *    a state changes only when one speaker dates one in the past and says another holds now.
 *
 * The rules are general on purpose: test/conflict-cases.ts and test/conflict-cases-dialogue.ts
 * measure them against fixed tables, failures included.
 */
import { isCalendarWord } from "../time/calendar-words";
import { parseSmallNumber } from "../time/relative-time";
import { tagWords, type TagMemo, type TaggedWord } from "../tagging/tagged-words";
import type { ConflictPair, ConflictVerdict } from "../../models/types";
import { LruMap } from "../lru-map";
import { isContentWord } from "../salience/analysis";
import { deniedHabit, isKindOf, isKnownNoun } from "../noun-kinds";

type Slot =
  | "residence"
  | "location"
  | "time"
  | "employer"
  | "preference"
  | "favourite"
  | "marital"
  | "age"
  | "birth"
  | "possession"
  | "state"
  | "copula";

/** Slots that hold one value at a time: a different value is a newer one (or a wrong one). */
const SINGLE_VALUED: ReadonlySet<Slot> = new Set(["residence", "location", "time", "employer", "favourite", "marital", "age", "birth"]);
/** Slots whose value never changes (where and when one was born): another value contradicts. */
const IMMUTABLE: ReadonlySet<Slot> = new Set(["birth"]);
/** Predicates that only say something when nothing stronger is in the clause. */
const WEAK: ReadonlySet<Slot> = new Set(["copula", "possession", "location"]);

interface LexEntry {
  slot: Slot;
  positive: boolean;
  /** The next word must be one of these (English: "lives in", "works at"). */
  next?: readonly string[];
  /** The word itself says something changed ("moved to", 搬到, 离婚). */
  change?: boolean;
  /** Only right after a negation ("can't stand": a dislike; "stand" alone is no preference). */
  negatedOnly?: boolean;
}

const LIVE_NEXT = ["in", "at", "near"];
const MOVE_NEXT = ["to", "into", "in", "here", "there", "back", "away", "abroad", "home", "from", "out"];
const WORK_NEXT = ["at", "for", "as"];

function entries(words: string, entry: LexEntry): [string, LexEntry][] {
  return words
    .split(/\s+/)
    .filter((w) => w !== "")
    .map((w) => [w, entry]);
}

/** By surface form (English inflections listed: the tagger's lemma of a short clause is not reliable). */
const LEXICON: ReadonlyMap<string, LexEntry> = new Map([
  ...entries("live lives living lived reside resides residing resided", { slot: "residence", positive: true, next: LIVE_NEXT }),
  ...entries("move moves moving moved relocate relocates relocating relocated", {
    slot: "residence",
    positive: true,
    next: MOVE_NEXT,
    change: true,
  }),
  ...entries("住 住在 家住 居住 居住在 住到 定居 定居在", { slot: "residence", positive: true }),
  ...entries("在", { slot: "location", positive: true }),
  ...entries("改到 挪到 移到 换到 调到", { slot: "location", positive: true, change: true }),
  ...entries("搬到 搬去 搬进 搬家到 迁到 迁居", { slot: "residence", positive: true, change: true }),
  ...entries("work works working worked", { slot: "employer", positive: true, next: WORK_NEXT }),
  ...entries("employed", { slot: "employer", positive: true, next: ["at", "by"] }),
  ...entries("job jobs", { slot: "employer", positive: true, next: ["at", "as", "with"] }),
  ...entries("工作 上班 任职 就职", { slot: "employer", positive: true }),
  ...entries("入职 跳槽", { slot: "employer", positive: true, change: true }),
  ...entries("辞职 离职 失业 下岗", { slot: "employer", positive: false, change: true }),
  ...entries("like likes liked love loves loved enjoy enjoys enjoyed adore adores adored prefer prefers preferred", {
    slot: "preference",
    positive: true,
  }),
  ...entries("hate hates hated dislike dislikes disliked detest detests loathe loathes", { slot: "preference", positive: false }),
  ...entries("stand", { slot: "preference", positive: true, negatedOnly: true }),
  ...entries("喜欢 爱 喜爱 热爱 爱吃 爱喝 偏爱 钟爱", { slot: "preference", positive: true }),
  ...entries("讨厌 厌恶 恨 反感 讨厌吃", { slot: "preference", positive: false }),
  ...entries("favorite favourite 最爱", { slot: "favourite", positive: true }),
  ...entries("married 结婚 已婚", { slot: "marital", positive: true }),
  ...entries("born 出生 出生于 出生在 生于", { slot: "birth", positive: true }),
  ...entries("single unmarried 单身 未婚", { slot: "marital", positive: false }),
  ...entries("divorced 离婚", { slot: "marital", positive: false, change: true }),
  ...entries("have has had own owns 有 养", { slot: "possession", positive: true }),
  ...entries("is am are was were 's 'm 're be 是", { slot: "copula", positive: true }),
]);

const NEGATIONS: ReadonlySet<string> = new Set(
  `not never no cannot can't don't doesn't didn't isn't aren't wasn't weren't won't wouldn't haven't hasn't hadn't n't
   不 没 没有 未 别 不再 从不 并不 从没 不是 并非 不怎么 不太 不大 很少 几乎不`.split(/\s+/),
);
/** Negations that also say something changed ("no longer", "not … anymore", 不再). */
const CHANGE_NEGATIONS: ReadonlySet<string> = new Set(["longer", "anymore", "不再"]);

/**
 * Words that say a value changed. Not "got", "new", "since", "recently": chat says them of
 * anything ("got some new offers", "since we last spoke"), and they made updates of unrelated turns.
 */
const CHANGE_MARKERS: ReadonlySet<string> = new Set(
  `now currently nowadays moved relocated switched changed became become becomes anymore longer
   现在 如今 目前 不再 搬家 改成 换成 变成 改为 改用 改到 转到 后来 开始 换了 换 又`.split(/\s+/),
);

/**
 * Chinese verbs of feeling and thinking (感到焦虑, 觉得累): what one felt or thought then, which a
 * later feeling does not update; English has them among its light verbs (feel, think).
 */
const ZH_MENTAL_VERBS: ReadonlySet<string> = new Set(["感到", "感觉", "觉得", "认为", "以为", "希望", "想", "想要", "打算"]);

/**
 * Verbs of aspect: the verb after them is the predicate ("started playing guitar" → play,
 * 又开始好好吃饭 → 吃饭); those that end it (stopped smoking, 停止) also negate it, as a change.
 */
const ASPECT_BEGIN: ReadonlySet<string> = new Set(["start", "begin", "keep", "continue", "开始", "继续"]);
const ASPECT_END: ReadonlySet<string> = new Set(["stop", "quit", "停止"]);

/**
 * Verbs that end what their object names: "lost my job", "quit my job at the bank", 丢了工作. With a
 * slot noun (ENDED_SLOTS) the clause says the slot's value ended, as a change.
 */
const ENDING_VERBS: ReadonlySet<string> = new Set(["lose", "quit", "leave", "丢", "丢了", "辞掉", "辞去", "失去"]);
const ENDED_SLOTS: ReadonlyMap<string, Slot> = new Map([
  ["job", "employer"],
  ["jobs", "employer"],
  ["工作", "employer"],
]);

/** Prepositions of place after a copula ("is in the old mill", "is out in the suburbs", "is located near"). */
const LOCATIVES: ReadonlySet<string> = new Set(["in", "at", "on", "near", "inside", "outside", "behind", "beside"]);
const BEFORE_LOCATIVE: ReadonlySet<string> = new Set([
  "out",
  "up",
  "down",
  "over",
  "right",
  "still",
  "now",
  "located",
  "based",
  "situated",
]);

/**
 * One-character Chinese verbs said of anything (是, 有, 做, 说, 去, 来, 要…): never the predicate a
 * frame compares. The keyword stop list also holds the verbs of action (吃, 喝, 骑, 穿), which are
 * the predicates of habits ("不怎么吃东西" / "又开始好好吃饭了").
 */
const ZH_LIGHT_VERBS: ReadonlySet<string> = new Set(Array.from("是有做用说讲看见去来想叫要会能可应让给把被将在到等请谢好弄搞得"));

/** Degree adverbs: the word after one is a state (很紧张, 非常累, "so nervous"). */
const ZH_DEGREE: ReadonlySet<string> = new Set(["很", "非常", "特别", "十分", "挺", "太", "有点", "有些", "比较", "更", "越来越"]);
const EN_DEGREE: ReadonlySet<string> = new Set([
  "so",
  "very",
  "really",
  "too",
  "pretty",
  "quite",
  "extremely",
  "super",
  "kind",
  "kinda",
  "of",
]);

/**
 * Where a clause states a state of its subject, or -1: a Chinese word after a degree adverb (很紧张,
 * 很放松), or an English copula's adjective ("is (so) nervous"), with no thing named after it.
 */
function stateAt(words: readonly Word[], copula: number): number {
  if (copula >= 0) {
    let i = copula + 1;
    while (EN_DEGREE.has(words[i]?.surface ?? "")) i += 1;
    const named = words.slice(i + 1).some((w) => (w.cls === "noun" || w.cls === "name") && w.content && !w.temporal);
    return words[i]?.cls === "adj" && words[i]?.content === true && !named ? i : -1;
  }
  return words.findIndex(
    (w, i) =>
      (ZH_DEGREE.has(words[i - 1]?.surface ?? "") && (w.cls === "adj" || w.cls === "verb") && w.content && !LEXICON.has(w.surface)) ||
      zhGluedState(w) !== null,
  );
}

/** A Chinese adjective jieba keeps with its degree adverb (很胖, 太累): the state it names (胖). */
function zhGluedState(w: Word): string | null {
  if (w.cls !== "adj" || w.surface.length < 2) return null;
  const degree = ["很", "太", "挺", "非常", "特别"].find((d) => w.surface.startsWith(d) && w.surface.length > d.length);
  return degree === undefined ? null : w.surface.slice(degree.length);
}

const stateValue = (w: Word | undefined): string => (w === undefined ? "" : (zhGluedState(w) ?? w.lemma));

/** Localisers: 在 X 上/中/里 is where something happened, not the clause's predicate. */
const ZH_LOCALISERS: ReadonlySet<string> = new Set(["上", "中", "里", "内", "外", "旁", "边", "时"]);

/** Negations over all time: "I've never played" denies "I started playing five years ago". */
const EVER_NEGATIONS: ReadonlySet<string> = new Set(["never", "从没", "从未", "从来没", "从不"]);

/** Words that say a value held all along ("always", 一直, 从小), and "whole/entire/all … life". */
const LIFELONG_MARKERS: ReadonlySet<string> = new Set(["always", "一直", "从小", "一辈子", "从来都"]);
const isLifelong = (words: readonly Word[]): boolean =>
  words.some(
    (w, i) =>
      LIFELONG_MARKERS.has(w.surface) ||
      (w.lemma === "life" && ["whole", "entire", "all"].some((q) => words[i - 1]?.surface === q || words[i - 2]?.surface === q)),
  );

const PAST_MARKERS: ReadonlySet<string> = new Set(
  `formerly previously once ago earlier
   以前 曾经 过去 之前 原来 从前 当年 当时`.split(/\s+/),
);

/** Words that anchor a statement to a time both texts may share ("今年十岁" / "今年十二岁"). */
const TIME_ANCHORS: ReadonlySet<string> = new Set(["今年", "this year", "今天", "today"]);

/** A reply that opens by denying what was said. */
const DENIALS = /^(?:不对|不是的|才不是|no[,!.]|nope|that's not (?:right|true)|actually,? no)/iu;

const FIRST_PERSON: ReadonlySet<string> = new Set([
  "i",
  "me",
  "my",
  "mine",
  "we",
  "us",
  "our",
  "我",
  "我们",
  "我家",
  "我们家",
  "咱们",
  "咱",
]);
const SECOND_PERSON: ReadonlySet<string> = new Set(["you", "your", "yours", "你", "您", "你们", "你家"]);
const OTHER_PRONOUNS: ReadonlySet<string> = new Set(["he", "him", "she", "her", "they", "them", "it", "他", "她", "它", "他们", "她们"]);

/** A clause ends at sentence punctuation, a comma, a semicolon, a line break, or "but"/但是. */
const CLAUSE_BREAK =
  /[。！？!?；;，,:：\n]+|\.(?=\s|$)|\s[-–—]+\s|\s+but\s+|\s+so\s+(?=(?:i|we|you|he|she|they|it|now|that|the|my|our|his|her|their)\b)|但是|可是|不过|所以/iu;
/** A sentence that asks: its clauses assert nothing. */
const QUESTION_END = /[?？][\s"'”’)）」』]*$/u;
const QUESTION_PARTICLE = /[吗呢][\s。！!]*$/u;
/** The absolute dates this service adds after relative times ("昨天（2025-11-04）"): not part of a fact. */
const DATE_NOTE = /\s?[（(](?:the week of )?\d{4}(?:-\d{2}(?:-\d{2})?)?(?:那一周|年|月)?[）)]/gu;
const SPEAKER = /^([^:：\n]{1,64})[:：]\s*/u;
const AGE_WORD = /^(\d+|[一二两三四五六七八九十]+)岁$/u;
const YEARS = /^years?$/;

interface Word {
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

interface Frame {
  slot: Slot | null;
  /** The predicate: the slot's word or the main verb's lemma ("" for none). */
  predicate: string;
  positive: boolean;
  negated: boolean;
  change: boolean;
  /** A change said in words (a marker or a change verb), not only by a clause-final 了. */
  saidChange: boolean;
  past: boolean;
  /** Negated for all time ("never", 从没): a past statement of the opposite is no excuse. */
  ever: boolean;
  /** Held all one's life ("my whole life", "always", 从小): no change of it can be dated. */
  lifelong: boolean;
  anchor: string | null;
  /** The kind of a favourite ("color" of "favorite color is blue"); null for other slots or none said. */
  category: string | null;
  subject: Set<string>;
  object: Set<string>;
  /** A number counted in the object ("two cats", 三岁). */
  count: number | null;
}

interface Parsed {
  speaker: string | null;
  /** The speaker's name as words (what "I" stands for). */
  speakerWords: string[];
  denies: boolean;
  frames: Frame[];
  /** Clauses that state something, parsed into a frame or not: not a question, a predicate word and a thing. */
  statements: number;
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

function wordsOf(clause: string, memo: TagMemo | undefined): Word[] {
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

const EN_NUMBERS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
function englishNumber(word: string): number | undefined {
  return EN_NUMBERS[word];
}

/** A lexicon word, or one with a negation glued on by the segmenter (不喜欢, 没结婚). */
function lexiconEntry(words: readonly Word[], i: number): LexEntry | { entry: LexEntry; negated: true } | undefined {
  const w = words[i];
  if (!w) return undefined;
  // "Let's" is "let us", no copula; neither is a possessive 's before another copula ("Theo's studio is …").
  const possessive = w.surface === "'s" && words.slice(i + 1).some((v) => LEXICON.get(v.surface)?.slot === "copula");
  const direct = (w.surface === "'s" && words[i - 1]?.surface === "let") || possessive ? undefined : LEXICON.get(w.surface);
  const follows = direct?.next === undefined || direct.next.includes(words[i + 1]?.surface ?? "");
  const negation = direct?.negatedOnly !== true || NEGATIONS.has(words[i - 1]?.surface ?? "");
  if (direct && follows && negation) return direct;
  for (const prefix of ["不", "没有", "没", "未"]) {
    if (!w.surface.startsWith(prefix)) continue;
    const rest = LEXICON.get(w.surface.slice(prefix.length));
    if (rest) return { entry: rest, negated: true };
  }
  return undefined;
}

const isMarker = (w: Word) =>
  CHANGE_MARKERS.has(w.surface) || PAST_MARKERS.has(w.surface) || NEGATIONS.has(w.surface) || CHANGE_NEGATIONS.has(w.surface);

/** The frame of one clause, or null when it states nothing (a question, no predicate). */
function frameOf(clause: string, speakerWords: readonly string[], memo: TagMemo | undefined): Frame | null {
  const words = wordsOf(clause, memo);
  if (words.length === 0) return null;
  // The predicate: the first lexicon word, a copula or possession only when no other lexicon word
  // follows; else the first content verb.
  let at = -1;
  let entry: LexEntry | undefined;
  let glued = false;
  for (let i = 0; i < words.length; i++) {
    const hit = lexiconEntry(words, i);
    if (!hit) continue;
    const e = "entry" in hit ? hit.entry : hit;
    const weak = WEAK.has(e.slot);
    if (!weak || at < 0) {
      at = i;
      entry = e;
      glued = "entry" in hit;
    }
    if (!weak) break;
  }
  // "lost my delivery job": the slot noun's value ended; its modifiers (and "at/as X" after it) are the value.
  let objectEnd = words.length;
  const ending = words.findIndex((w) => w.cls === "verb" && ENDING_VERBS.has(w.lemma));
  const endedNoun = ending < 0 ? -1 : words.findIndex((w, i) => i > ending && i <= ending + 4 && ENDED_SLOTS.has(w.surface));
  const endedSlot = ENDED_SLOTS.get(words[endedNoun]?.surface ?? "");
  if (endedSlot !== undefined && (entry === undefined || WEAK.has(entry.slot) || at === endedNoun)) {
    entry = { slot: endedSlot, positive: false, change: true };
    at = ending;
    glued = false;
    if (!WORK_NEXT.includes(words[endedNoun + 1]?.surface ?? "")) objectEnd = endedNoun + 1;
  }
  // The object stops where "and" starts another predicate ("lost my job and opened a store").
  const and = words.findIndex((w, i) => i > at && (w.surface === "and" || w.surface === "然后") && words[i + 1]?.cls === "verb");
  if (at >= 0 && and > at) objectEnd = Math.min(objectEnd, and);
  // 在 as the predicate places the subject ("会议在三楼"); with another verb in the clause, or closed
  // by a localiser (在X上, 在比赛中), it only says where something happened ("在动物园看到…",
  // "参加了一个在公园的野餐"): that verb, if any, is the predicate.
  if (
    entry?.slot === "location" &&
    words[at]?.surface === "在" &&
    words.some((w, i) => (i !== at && w.cls === "verb" && w.content) || (i > at && ZH_LOCALISERS.has(w.surface)))
  ) {
    entry = undefined;
    at = -1;
  }
  // "favourite" names the slot wherever it stands ("Ivy's favorite color is blue", 我最喜欢的…是…).
  const favourite = words.findIndex(
    (w, i) => LEXICON.get(w.surface)?.slot === "favourite" || (w.surface === "最" && words[i + 1]?.surface === "喜欢"),
  );
  let predicate = "";
  /** An aspect verb ended the predicate ("stopped smoking"). */
  let ended = false;
  // What kind of favourite: the noun right after the word ("favorite color", 最喜欢的企鹅); 最喜欢金色
  // (no 的) names the value itself.
  let category: string | null = null;
  if (favourite >= 0) {
    const zh = words[favourite]?.surface === "最";
    const at2 = zh ? favourite + 2 : favourite + 1;
    const after = zh && words[at2]?.surface !== "的" ? undefined : words[zh ? at2 + 1 : at2];
    category = after !== undefined && (after.cls === "noun" || after.cls === "name") ? after.lemma.replace(/s$/, "") : null;
    entry = { slot: "favourite", positive: true };
    const copula = words.findIndex((w, i) => i > favourite && LEXICON.get(w.surface)?.slot === "copula");
    at = copula >= 0 ? copula : words[favourite]?.surface === "最" ? favourite + 1 : favourite;
    predicate = "favourite";
  }
  // Age: a number followed by "years old", or N岁.
  let count: number | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (!w) continue;
    const age = AGE_WORD.exec(w.surface);
    const old =
      /^\d+$/.test(w.surface) &&
      (words[i + 1]?.surface === "岁" || (YEARS.test(words[i + 1]?.surface ?? "") && words[i + 2]?.surface === "old"));
    if (age || old) {
      entry = { slot: "age", positive: true };
      at = i;
      count = age ? (parseSmallNumber(age[1] ?? "") ?? null) : Number(w.surface);
      predicate = "age";
      break;
    }
  }
  if (entry === undefined || entry.slot === "copula") {
    const state = stateAt(words, entry === undefined ? -1 : at);
    if (state >= 0) {
      entry = { slot: "state", positive: true };
      at = state;
      predicate = "state";
    }
  }
  if (entry === undefined) {
    at = words.findIndex((w) => w.cls === "verb" && w.content && !isMarker(w));
    // A short clause's third-person verb is often tagged a plural noun ("Jack studies chemistry"):
    // a "noun" in -s right after a name that opens the clause, with a word after it.
    if (at < 0 && (words[0]?.cls === "name" || words[0]?.cls === "noun") && /s$/.test(words[1]?.surface ?? "") && words[2]?.content) at = 1;
    if (at < 0) return null;
    // A light verb (want, tell, 感到) splits subject from object but is no predicate to compare:
    // the verb it leads to is ("want to help" → help), or none.
    const isVerb = (w: Word | undefined) => w !== undefined && w.cls === "verb" && w.content && !w.light && !isMarker(w);
    const aspect = (i: number) => {
      const lemma = words[i]?.lemma ?? "";
      return (ASPECT_BEGIN.has(lemma) || ASPECT_END.has(lemma)) && words.slice(i + 1, i + 4).some(isVerb);
    };
    const main = words.findIndex((w, i) => i >= at && isVerb(w) && !aspect(i));
    predicate = main >= 0 ? (words[main]?.lemma ?? "") : "";
    ended = words.some((w, i) => i >= at && i < main && ASPECT_END.has(w.lemma) && aspect(i));
  } else if (predicate === "") predicate = entry.slot;
  const last = words.at(-1);
  const saidChange = ended || words.some((w) => CHANGE_MARKERS.has(w.surface) || CHANGE_NEGATIONS.has(w.surface)) || entry?.change === true;
  // Clause-final 了 marks a new state (我不喜欢猫了, 他31岁了) of a known slot; in a narrative it is as
  // often the plain perfective (和好了, 开心极了), so it does not make an update of other words alone.
  const change = saidChange || last?.surface === "了";
  const past = words.some(
    (w, i) =>
      PAST_MARKERS.has(w.surface) ||
      (w.surface === "used" && words[i + 1]?.surface === "to") ||
      /(?:天|年|月|周)前$/u.test(w.surface) ||
      (w.surface === "前" && /(?:天|年|月|周)$/u.test(words[i - 1]?.surface ?? "")),
  );
  const anchor = words.find((w, i) => TIME_ANCHORS.has(w.surface) || TIME_ANCHORS.has(`${w.surface} ${words[i + 1]?.surface ?? ""}`));
  // A copula's negation may follow it ("is not vegetarian"); another predicate's comes before it
  // ("I'm having an art show - can't wait!" is not a negated show).
  const anywhere = entry?.slot === "copula";
  const negated = glued || ended || words.some((w, i) => i !== at && NEGATIONS.has(w.surface) && (anywhere || i < at));
  const ever = words.some((w, i) => EVER_NEGATIONS.has(w.surface) && (anywhere || i < at));
  // Chinese 在X工作: the object sits between 在 and the predicate, the subject before 在.
  const zai = at > 0 ? words.slice(0, at).findIndex((w) => w.surface === "在") : -1;
  const subjectEnd = at < 0 ? 0 : zai >= 0 ? zai : at;
  const subject = new Set<string>();
  for (const w of words.slice(0, subjectEnd)) {
    if (isMarker(w)) continue;
    if (FIRST_PERSON.has(w.surface)) for (const s of speakerWords.length > 0 ? speakerWords : ["<speaker>"]) subject.add(s);
    else if (SECOND_PERSON.has(w.surface)) subject.add("<you>");
    else if (OTHER_PRONOUNS.has(w.surface)) subject.add(`<${w.surface}>`);
    else if (w.content && (w.cls === "noun" || w.cls === "name") && !isCalendarWord(w.lemma)) subject.add(w.lemma);
  }
  const objectWords = at < 0 ? [] : [...(zai >= 0 ? words.slice(zai + 1, at) : []), ...words.slice(at + 1, objectEnd)];
  // A copula's value must name something: "is a teacher", "是王老师", not "is so happy" (an evaluation).
  const valueWords = entry?.slot === "copula" ? objectWords.filter((w) => w.cls !== "adj") : objectWords;
  const object = new Set(
    entry?.slot === "age"
      ? [String(count)]
      : entry?.slot === "state"
        ? [stateValue(words[at])]
        : valueWords
            .filter((w) => w.content && !isMarker(w) && !LEXICON.has(w.surface) && w.cls !== "verb")
            // A count of a possession is its count, not its object ("one cat" / "two cats now").
            .filter((w) => !(entry?.slot === "possession" && /^\d+$/.test(w.surface)))
            .map((w) => singular(w.lemma)),
  );
  // Where and when a thing is: "My studio is in the old mill building" (a place), "The meeting is on
  // Monday", "was moved to Friday", 会议在周一 (a time). Only of things: where a person or an animal
  // is changes by the hour ("I'm at the park", "my dog is in the yard").
  let slot = entry?.slot ?? null;
  let value = object;
  const thing = words
    .slice(0, subjectEnd)
    .some((w) => w.cls === "noun" && w.content && !isCalendarWord(w.lemma) && !isKindOf(w.lemma, "person") && !isKindOf(w.lemma, "animal"));
  if (thing && (slot === "copula" || slot === "location" || slot === "residence")) {
    const times = valueWords.filter((w) => w.temporal && w.cls !== "function").map((w) => w.lemma);
    let next = at + 1;
    while (BEFORE_LOCATIVE.has(words[next]?.surface ?? "")) next += 1;
    if (object.size === 0 && times.length > 0) {
      slot = "time";
      value = new Set(times);
    } else if (slot === "copula" && object.size > 0 && LOCATIVES.has(words[next]?.surface ?? "")) slot = "location";
  } else if (slot === "copula" && object.size > 0 && LOCATIVES.has(words[at + 1]?.surface ?? "")) {
    // Where a person is ("I'm at the park", "I'm at home now") is a state of the moment.
    slot = "state";
  }
  if (count === null) {
    const n = objectWords.find((w) => /^\d+$/.test(w.surface));
    count = n ? Number(n.surface) : null;
  }
  return {
    slot,
    predicate,
    positive: entry?.positive ?? true,
    negated,
    change,
    saidChange,
    past,
    ever,
    lifelong: isLifelong(words),
    anchor: anchor?.surface ?? null,
    category,
    subject,
    object: value,
    count,
  };
}

/** A plural the tagger left ("cats" tagged as a name) cut to its singular; "tennis", "boss" kept. */
const singular = (lemma: string): string => (/[^s]s$/.test(lemma) && !isKnownNoun(lemma) ? lemma.slice(0, -1) : lemma);

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => b.has(x)));
}

/** Objects name the same thing: both empty, one inside the other, or half their words shared. */
function sameObject(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 && b.size === 0) return true;
  if (a.size === 0 || b.size === 0) return false;
  const shared = intersect(a, b).size;
  return shared === a.size || shared === b.size || shared / (a.size + b.size - shared) >= 0.5;
}

/**
 * A denial of a kind covers its members: "I don't have any pets" / "I have a puppy", "eats no meat"
 * / "eats steak" (WordNet's hypernyms, noun-kinds.ts). Only that way round: having no puppy says
 * nothing of other pets, and two kinds stated side by side ("likes dogs", "likes animals") agree.
 */
function deniedKind(a: Frame, b: Frame): boolean {
  const holds = (f: Frame) => f.positive !== f.negated;
  if (holds(a) === holds(b)) return false;
  const [denied, stated] = holds(a) ? [b, a] : [a, b];
  // A thing in general (不吃东西, "doesn't eat anything") is every kind's kind.
  if (stated.object.size > 0 && denied.object.size > 0 && [...denied.object].every((w) => ANY_THING.has(w))) return true;
  return [...denied.object].some((category) => [...stated.object].some((noun) => isKindOf(noun, category)));
}

/** Nouns that name no kind but any thing: the object of "doesn't eat anything", 不吃东西. */
const ANY_THING: ReadonlySet<string> = new Set(["thing", "stuff", "anything", "something", "东西", "任何东西"]);

/**
 * Two frames' predicates as one: the same word, or a Chinese verb and a verb-object word made of it
 * (吃 / 吃饭, 喝 / 喝水): the rest of the longer one joins its object. Null when they differ.
 */
function samePredicate(a: Frame, b: Frame): [Frame, Frame] | null {
  if (a.predicate === b.predicate) return [a, b];
  const split = (short: Frame, long: Frame): Frame | null =>
    CJK_WORD.test(long.predicate) &&
    short.predicate.length === 1 &&
    long.predicate.length === 2 &&
    long.predicate.startsWith(short.predicate)
      ? { ...long, predicate: short.predicate, object: new Set([...long.object, long.predicate.slice(1)]) }
      : null;
  const longB = split(a, b);
  if (longB) return [a, longB];
  const longA = split(b, a);
  return longA ? [longA, b] : null;
}
const CJK_WORD = /^\p{Script=Han}+$/u;

/**
 * A value ended without naming it ("I lost my job", 我辞职了, "I don't smoke anymore", "quit
 * smoking"): whatever the value was.
 */
const endedAny = (f: Frame): boolean => f.object.size === 0 && f.saidChange && (f.negated || (f.slot !== null && !f.positive));

/** The two frames' objects name the same thing, or one denies a kind the other's object is of. */
const sameThing = (a: Frame, b: Frame): boolean => sameObject(a.object, b.object) || deniedKind(a, b) || endedAny(a) || endedAny(b);

/**
 * What a person noun's copula says of a habit: "Bob is vegetarian" also states "Bob eats no meat,
 * fish or animal products" (WordNet defines the noun by it, noun-kinds.ts).
 */
function habitFrames(frame: Frame): Frame[] {
  if (frame.slot !== "copula" || frame.negated) return [];
  return [...frame.object].flatMap((noun) => {
    const habit = deniedHabit(noun);
    return habit ? [{ ...frame, slot: null, predicate: habit.verb, negated: true, object: new Set(habit.objects), count: null }] : [];
  });
}

/**
 * Whether two subjects can be one: each text's "I" (and an unsaid subject: "Moved to Denver") is its
 * speaker, each "you" the other text's speaker; then they must share a word. A subject that is only
 * "he", "she" or "it" has no referent the rules can check: never the same.
 */
function sameSubject(a: Frame, b: Frame, earlier: Parsed, later: Parsed): boolean {
  const resolve = (f: Frame, self: Parsed, other: Parsed): Set<string> => {
    const out = new Set<string>();
    for (const s of f.subject) {
      if (s === "<you>") for (const w of other.speakerWords.length > 0 ? other.speakerWords : ["<other>"]) out.add(w);
      else out.add(s);
    }
    if (out.size === 0) for (const w of self.speakerWords) out.add(w);
    return out;
  };
  const sa = resolve(a, earlier, later);
  const sb = resolve(b, later, earlier);
  const pronounOnly = (s: ReadonlySet<string>) => s.size > 0 && [...s].every((w) => /^<(?!speaker>|other>)/.test(w));
  if (pronounOnly(sa) || pronounOnly(sb)) return false;
  if (sa.size === 0 || sb.size === 0) return true;
  return intersect(sa, sb).size > 0;
}

function judgeClauses(a: Frame, b: Frame, earlier: Parsed, later: Parsed): ConflictVerdict {
  if (!sameSubject(a, b, earlier, later)) return "unrelated";
  const oneVoice = earlier.speaker === later.speaker;
  // "Never" holds for all time: the past is no excuse ("started playing guitar years ago" / "never played").
  const past = (a.past || b.past) && !a.ever && !b.ever;
  const opposite = (a.positive !== a.negated) !== (b.positive !== b.negated);
  const changed = b.change || b.saidChange;
  // Favourites of different kinds (a favourite novel, a favourite animal) are different slots.
  if (a.slot === "favourite" && b.slot === "favourite" && a.category !== null && b.category !== null && a.category !== b.category)
    return "unrelated";
  // A state holds at a time: one the same speaker dated in the past and another said to hold now is
  // a change (十天前很紧张 / 现在很放松); any other two states (the moods of a chat) are no conflict.
  if (a.slot === "state" && b.slot === "state") {
    const same = sameThing(a, b) && !opposite;
    if (oneVoice && a.past && !b.past && b.saidChange && !same) return "update";
    return same ? "same" : "unrelated";
  }
  if (a.slot !== null && a.slot === b.slot && a.slot !== "copula") {
    // A value held all one's life denies a change of it the same subject dates in the past
    // ("moved here four years ago" / "lived in this town my whole life").
    const datedChange = (f: Frame) => f.saidChange && f.past && !f.lifelong;
    if (SINGLE_VALUED.has(a.slot) && !opposite && ((a.lifelong && datedChange(b)) || (b.lifelong && datedChange(a))))
      return "contradiction";
    if (a.slot === "age" || sameThing(a, b)) {
      const counted = a.count !== null && b.count !== null && a.count !== b.count;
      if (!counted && !opposite) return "same";
      if (past) return "unrelated";
      if (counted) {
        if (IMMUTABLE.has(a.slot)) return "contradiction";
        if (SINGLE_VALUED.has(a.slot))
          return a.anchor !== null && a.anchor === b.anchor ? "contradiction" : changed || oneVoice ? "update" : "contradiction";
        return b.saidChange ? "update" : "unrelated";
      }
      return changed ? "update" : "contradiction";
    }
    // The same speaker ends another value of a single-valued slot ("works as a banker" → "lost my job
    // at the bank"): the value changed.
    if (!past && opposite && oneVoice && SINGLE_VALUED.has(a.slot) && a.positive && !a.negated && !b.positive && b.saidChange)
      return "update";
    if (past || opposite) return "unrelated";
    if (!SINGLE_VALUED.has(a.slot) || a.negated || b.negated || !a.positive || !b.positive) return "unrelated";
    if (IMMUTABLE.has(a.slot)) return "contradiction";
    if (a.anchor !== null && a.anchor === b.anchor) return "contradiction";
    return oneVoice || changed ? "update" : "contradiction";
  }
  // No common slot: the same main verb is the predicate both state.
  const aligned = a.slot === null && b.slot === null && a.predicate !== "" ? samePredicate(a, b) : null;
  if (aligned) {
    [a, b] = aligned;
    if (sameThing(a, b)) {
      if (!opposite) return later.denies && !oneVoice ? "contradiction" : "same";
      if (past) return "unrelated";
      return changed ? "update" : "contradiction";
    }
    if (later.denies && !oneVoice && !past) return "contradiction";
    if (past || opposite || a.object.size === 0 || b.object.size === 0) return "unrelated";
    return b.saidChange && oneVoice ? "update" : "unrelated";
  }
  if (a.slot === "copula" && b.slot === "copula" && a.object.size > 0 && b.object.size > 0) {
    // The other speaker answers "不对 / No, …" with another value of the same statement.
    if (later.denies && !oneVoice && !past && !sameObject(a.object, b.object)) return "contradiction";
    // "is vegetarian" → "is not vegetarian"; "is a teacher" → "is now a doctor"; "是王老师" → "现在是李老师".
    if (sameObject(a.object, b.object)) return !opposite ? "same" : past ? "unrelated" : changed ? "update" : "contradiction";
    if (!past && b.saidChange && !opposite) return "update";
  }
  // A paraphrase or the same fact with a detail more: one clause's words all in the other.
  const wordsA = new Set([...a.object, a.predicate]);
  const wordsB = new Set([...b.object, b.predicate]);
  const shared = intersect(wordsA, wordsB).size;
  if (!opposite && a.object.size > 0 && b.object.size > 0 && shared > 0 && (shared === wordsA.size || shared === wordsB.size))
    return "same";
  return "unrelated";
}

const PRIORITY: readonly ConflictVerdict[] = ["unrelated", "same", "update", "contradiction"];

/** The text's speaker, whether it opens by denying, and the frames of its statements. */
function parse(text: string, memo: TagMemo | undefined): Parsed {
  const cleaned = text.replace(DATE_NOTE, "");
  const speakerMatch = SPEAKER.exec(cleaned);
  const speaker = speakerMatch?.[1]?.trim() ?? null;
  const speakerWords = speaker === null ? [] : speaker.toLowerCase().split(/\s+/);
  const body = speakerMatch ? cleaned.slice(speakerMatch[0].length) : cleaned;
  const frames: Frame[] = [];
  let statements = 0;
  for (const sentence of body.split(/(?<=[。！？!?\n]|\.(?=\s|$))/u)) {
    if (QUESTION_END.test(sentence.trim()) || QUESTION_PARTICLE.test(sentence.trim())) continue;
    for (const clause of sentence.split(CLAUSE_BREAK)) {
      if (clause.trim() === "") continue;
      const frame = frameOf(clause, speakerWords, memo);
      if (frame) frames.push(frame, ...habitFrames(frame));
      if (frame || statesSomething(clause, memo)) statements += 1;
    }
  }
  return { speaker: speaker?.toLowerCase() ?? null, speakerWords, denies: DENIALS.test(body.trim()), frames, statements };
}

/**
 * Texts and entity names already parsed, most recently used kept. A new memory is compared with up
 * to five earlier ones per entity, and an earlier one with every later one about its entities, so
 * without it the same text is parsed again for every pair (most of a remember's time, measured).
 * What it holds is read, never changed. One cache per model instance, i.e. per agent: never shared
 * between tenants, whose texts must not even change each other's timing.
 */
export class ParseCache {
  private readonly parsed = new LruMap<string, Parsed>(2048);

  /** `memo`: the agent's tagged lines, shared with extraction (tag-memo.ts). */
  constructor(private readonly memo?: TagMemo) {}

  parse(text: string): Parsed {
    return this.parsed.getOrSet(text, (t) => parse(t, this.memo));
  }
}

/**
 * The classical filter both providers apply (docs/design.md, "Models": the model is asked only about the
 * candidates classical filters leave open): a pair can be an update or a contradiction only when
 * each memory states something (a question, thanks, a greeting, "No worries!" do not), and, when
 * two speakers said them, when a subject of one can be a subject of the other. Pairs it closes are
 * unrelated, whoever judges them.
 */
export function mayConflict(pair: Pick<ConflictPair, "earlier" | "later">, cache: ParseCache = new ParseCache()): boolean {
  const earlier = cache.parse(pair.earlier);
  const later = cache.parse(pair.later);
  if (earlier.statements === 0 || later.statements === 0) return false;
  // Two speakers each saying something of someone else ("I lost my job" / "I lost mine too") are
  // about two people; one speaker, or a statement the rules cannot parse, stays open.
  if (earlier.speaker === later.speaker || earlier.frames.length === 0 || later.frames.length === 0) return true;
  // Two speakers' states ("跑步让身体更健康" / "对，跑步对身体很好") are evaluations, which only
  // one speaker's dated change makes a conflict (judgeClauses).
  return earlier.frames.some((a) =>
    later.frames.some((b) => sameSubject(a, b, earlier, later) && !(a.slot === "state" && b.slot === "state")),
  );
}

/**
 * A clause with a predicate word (a verb or an adjective) and a thing (a noun, a name, a number);
 * in Chinese any two content words, as jieba may take the verb into a noun (家养|猫, 走路|上学).
 */
function statesSomething(clause: string, memo: TagMemo | undefined): boolean {
  const words = wordsOf(clause, memo).filter((w) => w.content);
  if (/\p{Script=Han}/u.test(clause)) return words.length >= 2;
  return (
    words.some((w) => w.cls === "verb" || w.cls === "adj") && words.some((w) => w.cls === "noun" || w.cls === "name" || w.cls === "num")
  );
}

/** The local verdict on one pair (see the rules above); `cache` keeps parsed texts between pairs. */
export function judgeConflict(pair: ConflictPair, cache: ParseCache = new ParseCache()): ConflictVerdict {
  const earlier = cache.parse(pair.earlier);
  const later = cache.parse(pair.later);
  let best: ConflictVerdict = "unrelated";
  for (const a of earlier.frames) {
    for (const b of later.frames) {
      const verdict = judgeClauses(a, b, earlier, later);
      if (PRIORITY.indexOf(verdict) > PRIORITY.indexOf(best)) best = verdict;
    }
  }
  return best;
}
