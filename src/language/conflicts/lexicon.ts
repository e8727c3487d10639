/**
 * The words the conflict rules know (judge.ts): the slot lexicon (lives/moved, works at, likes/hates,
 * favourite, married/single, born, has, the copula) with what each says, and the small closed
 * classes the frames are read with: negations, markers of change, of the past and of all time,
 * light, mental and aspect verbs, degree adverbs, localisers, locatives, time anchors, denials and
 * the persons' pronouns. In English and Chinese.
 */

export type Slot =
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
export const SINGLE_VALUED: ReadonlySet<Slot> = new Set([
  "residence",
  "location",
  "time",
  "employer",
  "favourite",
  "marital",
  "age",
  "birth",
]);
/** Slots whose value never changes (where and when one was born): another value contradicts. */
export const IMMUTABLE: ReadonlySet<Slot> = new Set(["birth"]);
/** Predicates that only say something when nothing stronger is in the clause. */
export const WEAK: ReadonlySet<Slot> = new Set(["copula", "possession", "location"]);

export interface LexEntry {
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
export const WORK_NEXT = ["at", "for", "as"];

function entries(words: string, entry: LexEntry): [string, LexEntry][] {
  return words
    .split(/\s+/)
    .filter((w) => w !== "")
    .map((w) => [w, entry]);
}

/** By surface form (English inflections listed: the tagger's lemma of a short clause is not reliable). */
export const LEXICON: ReadonlyMap<string, LexEntry> = new Map([
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

export const NEGATIONS: ReadonlySet<string> = new Set(
  `not never no cannot can't don't doesn't didn't isn't aren't wasn't weren't won't wouldn't haven't hasn't hadn't n't
   不 没 没有 未 别 不再 从不 并不 从没 不是 并非 不怎么 不太 不大 很少 几乎不`.split(/\s+/),
);
/** Negations that also say something changed ("no longer", "not … anymore", 不再). */
export const CHANGE_NEGATIONS: ReadonlySet<string> = new Set(["longer", "anymore", "不再"]);

/**
 * Words that say a value changed. Not "got", "new", "since", "recently": chat says them of
 * anything ("got some new offers", "since we last spoke"), and they made updates of unrelated turns.
 */
export const CHANGE_MARKERS: ReadonlySet<string> = new Set(
  `now currently nowadays moved relocated switched changed became become becomes anymore longer
   现在 如今 目前 不再 搬家 改成 换成 变成 改为 改用 改到 转到 后来 开始 换了 换 又`.split(/\s+/),
);

/**
 * Chinese verbs of feeling and thinking (感到焦虑, 觉得累): what one felt or thought then, which a
 * later feeling does not update; English has them among its light verbs (feel, think).
 */
export const ZH_MENTAL_VERBS: ReadonlySet<string> = new Set(["感到", "感觉", "觉得", "认为", "以为", "希望", "想", "想要", "打算"]);

/**
 * Verbs of aspect: the verb after them is the predicate ("started playing guitar" → play,
 * 又开始好好吃饭 → 吃饭); those that end it (stopped smoking, 停止) also negate it, as a change.
 */
export const ASPECT_BEGIN: ReadonlySet<string> = new Set(["start", "begin", "keep", "continue", "开始", "继续"]);
export const ASPECT_END: ReadonlySet<string> = new Set(["stop", "quit", "停止"]);

/**
 * Verbs that end what their object names: "lost my job", "quit my job at the bank", 丢了工作. With a
 * slot noun (ENDED_SLOTS) the clause says the slot's value ended, as a change.
 */
export const ENDING_VERBS: ReadonlySet<string> = new Set(["lose", "quit", "leave", "丢", "丢了", "辞掉", "辞去", "失去"]);
export const ENDED_SLOTS: ReadonlyMap<string, Slot> = new Map([
  ["job", "employer"],
  ["jobs", "employer"],
  ["工作", "employer"],
]);

/** Prepositions of place after a copula ("is in the old mill", "is out in the suburbs", "is located near"). */
export const LOCATIVES: ReadonlySet<string> = new Set(["in", "at", "on", "near", "inside", "outside", "behind", "beside"]);
export const BEFORE_LOCATIVE: ReadonlySet<string> = new Set([
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
export const ZH_LIGHT_VERBS: ReadonlySet<string> = new Set(Array.from("是有做用说讲看见去来想叫要会能可应让给把被将在到等请谢好弄搞得"));

/** Degree adverbs: the word after one is a state (很紧张, 非常累, "so nervous"). */
export const ZH_DEGREE: ReadonlySet<string> = new Set(["很", "非常", "特别", "十分", "挺", "太", "有点", "有些", "比较", "更", "越来越"]);
export const EN_DEGREE: ReadonlySet<string> = new Set([
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

/** Localisers: 在 X 上/中/里 is where something happened, not the clause's predicate. */
export const ZH_LOCALISERS: ReadonlySet<string> = new Set(["上", "中", "里", "内", "外", "旁", "边", "时"]);

/** Negations over all time: "I've never played" denies "I started playing five years ago". */
export const EVER_NEGATIONS: ReadonlySet<string> = new Set(["never", "从没", "从未", "从来没", "从不"]);

/** Words that say a value held all along ("always", 一直, 从小), and "whole/entire/all … life". */
export const LIFELONG_MARKERS: ReadonlySet<string> = new Set(["always", "一直", "从小", "一辈子", "从来都"]);

export const PAST_MARKERS: ReadonlySet<string> = new Set(
  `formerly previously once ago earlier
   以前 曾经 过去 之前 原来 从前 当年 当时`.split(/\s+/),
);

/** Words that anchor a statement to a time both texts may share ("今年十岁" / "今年十二岁"). */
export const TIME_ANCHORS: ReadonlySet<string> = new Set(["今年", "this year", "今天", "today"]);

/** A reply that opens by denying what was said. */
export const DENIALS = /^(?:不对|不是的|才不是|no[,!.]|nope|that's not (?:right|true)|actually,? no)/iu;

export const FIRST_PERSON: ReadonlySet<string> = new Set([
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
export const SECOND_PERSON: ReadonlySet<string> = new Set(["you", "your", "yours", "你", "您", "你们", "你家"]);
export const OTHER_PRONOUNS: ReadonlySet<string> = new Set([
  "he",
  "him",
  "she",
  "her",
  "they",
  "them",
  "it",
  "他",
  "她",
  "它",
  "他们",
  "她们",
]);
