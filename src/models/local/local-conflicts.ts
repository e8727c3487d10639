/**
 * The local model's conflict judgement (docs/design.md §11, conflicts on write): transparent rules
 * over words, no world knowledge. Two memories about a shared entity are cut into clauses; each
 * clause gets a frame: its predicate (a word of the slot lexicon below, else its shared content
 * words), the subject before it, the object after it, negation, and markers of change over time
 * ("now", "moved", 现在, 搬到) or of the past ("used to", 以前). Then, for the most telling pair of
 * clauses:
 *
 * 1. different subjects (both named, no word in common) → unrelated;
 * 2. the same slot in both (lives/resides/moved to; works at/for; likes/loves/hates; married/single;
 *    age), same object:
 *    same polarity → same; opposite polarity (negation, or an antonym: likes/hates) → update when
 *    the later says it changed, else contradiction;
 * 3. the same slot, different objects: a single-valued slot (residence, employer, marital state,
 *    age) → update (the later value replaces the earlier: seed 002, a change over time is not a
 *    contradiction); a many-valued slot (likes tea, likes coffee) → unrelated;
 * 4. otherwise the predicate is the content words both share: all the words of one shared by the
 *    other (a paraphrase, or a detail more) → same, or contradiction/update on opposite polarity; some shared and different objects → update
 *    when the later says it changed ("now drives a Honda"), else unrelated; nothing shared →
 *    unrelated (another fact about the same person), except "is X" → "is now Y" (update);
 * 5. an explicit past ("used to live in Rome") never updates or contradicts: both hold.
 *
 * The priority over clause pairs is contradiction, update, same, unrelated. The rules are general
 * on purpose: test/conflict-cases.ts measures them against a fixed table, failures included.
 */
import { isCalendarWord } from "../../text/calendar-words";
import { normalizeText } from "../../text/normalize";
import { parseSmallNumber } from "../../text/relative-time";
import { isContent, tokenize } from "../../text/tokenize";
import type { ConflictPair, ConflictVerdict } from "../types";
import { LruMap } from "./lru-map";

type Slot = "residence" | "employer" | "preference" | "marital" | "age" | "copula";

/** Slots that hold one value at a time: a different value is a newer one. */
const SINGLE_VALUED: ReadonlySet<Slot> = new Set(["residence", "employer", "marital", "age"]);

interface LexEntry {
  slot: Slot;
  positive: boolean;
  /** The next word must be one of these (English: "lives in", "works at"). */
  next?: readonly string[];
  /** The word itself says something changed ("moved to", 搬到, 离婚). */
  change?: boolean;
}

const LIVE_NEXT = ["in", "at", "near"];
const MOVE_NEXT = ["to", "into", "in"];
const WORK_NEXT = ["at", "for"];

function entries(words: string, entry: LexEntry): [string, LexEntry][] {
  return words
    .split(/\s+/)
    .filter((w) => w !== "")
    .map((w) => [w, entry]);
}

const LEXICON: ReadonlyMap<string, LexEntry> = new Map([
  ...entries("live lives living lived reside resides residing resided", { slot: "residence", positive: true, next: LIVE_NEXT }),
  ...entries("move moves moving moved relocate relocates relocating relocated", {
    slot: "residence",
    positive: true,
    next: MOVE_NEXT,
    change: true,
  }),
  ...entries("住 住在 居住 居住在 住到 定居 定居在", { slot: "residence", positive: true }),
  ...entries("搬到 搬去 搬进 搬家到 迁到 迁居", { slot: "residence", positive: true, change: true }),
  ...entries("work works working worked", { slot: "employer", positive: true, next: WORK_NEXT }),
  ...entries("employed", { slot: "employer", positive: true, next: ["at", "by"] }),
  ...entries("工作 上班 任职 就职", { slot: "employer", positive: true }),
  ...entries("入职 跳槽", { slot: "employer", positive: true, change: true }),
  ...entries("like likes liked love loves loved enjoy enjoys enjoyed adore adores adored prefer prefers preferred", {
    slot: "preference",
    positive: true,
  }),
  ...entries("hate hates hated dislike dislikes disliked detest detests loathe loathes", { slot: "preference", positive: false }),
  ...entries("喜欢 爱 喜爱 热爱 爱吃 爱喝 偏爱 钟爱", { slot: "preference", positive: true }),
  ...entries("讨厌 厌恶 恨 反感 讨厌吃", { slot: "preference", positive: false }),
  ...entries("married 结婚 已婚", { slot: "marital", positive: true }),
  ...entries("single unmarried 单身 未婚", { slot: "marital", positive: false }),
  ...entries("divorced 离婚", { slot: "marital", positive: false, change: true }),
  ...entries("is am are was were 是", { slot: "copula", positive: true }),
]);

const NEGATIONS: ReadonlySet<string> = new Set(
  `not never no cannot can't don't doesn't didn't isn't aren't wasn't weren't won't wouldn't haven't hasn't hadn't
   不 没 没有 未 别 不再 从不 并不 从没 不是 并非`.split(/\s+/),
);
/** Negations that also say something changed ("no longer", "not … anymore", 不再). */
const CHANGE_NEGATIONS: ReadonlySet<string> = new Set(["longer", "anymore", "不再"]);

const CHANGE_MARKERS: ReadonlySet<string> = new Set(
  `now currently nowadays moved relocated switched changed became become becomes got recently lately since anymore longer
   现在 如今 目前 最近 已经 不再 搬家 改成 换成 变成 改为 改用 改到 转到 后来 开始`.split(/\s+/),
);

const PAST_MARKERS: ReadonlySet<string> = new Set(
  `formerly previously once ago earlier
   以前 曾经 过去 之前 原来 从前 当年 当时`.split(/\s+/),
);

const PRONOUNS: ReadonlySet<string> = new Set(
  `i me you he him she her we us they them it 我 你 您 他 她 它 我们 你们 他们 她们 咱们`.split(/\s+/),
);
const FIRST_PERSON: ReadonlySet<string> = new Set(["i", "me", "我"]);

/** A clause ends at sentence punctuation, a comma, a semicolon, a line break, or "but"/但是. */
const CLAUSE_BREAK = /[。！？!?；;，,\n]+|\.(?=\s|$)|\s+but\s+|但是|可是|不过/u;
/** The absolute dates this service adds after relative times ("昨天（2025-11-04）"): not part of a fact. */
const DATE_NOTE = /\s?[（(](?:the week of )?\d{4}(?:-\d{2}(?:-\d{2})?)?(?:那一周|年|月)?[）)]/gu;
const SPEAKER = /^([^:：\n]{1,64})[:：]\s*/u;

interface Word {
  /** Lower-cased surface form (lexicon and marker lookups). */
  surface: string;
  /** The tokenizer's comparison form (stemmed for English). */
  norm: string;
  content: boolean;
}

interface Frame {
  slot: Slot | null;
  positive: boolean;
  negated: boolean;
  change: boolean;
  /** A change said in words (a marker or a change verb), not only by a clause-final 了. */
  saidChange: boolean;
  past: boolean;
  subject: Set<string>;
  object: Set<string>;
  /** Content words of the clause, markers and negations left out. */
  words: Set<string>;
}

/** Numbers are facts here (ages, floors, years) even where the tokenizer calls them stop words (三十). */
function wordsOf(clause: string): Word[] {
  return tokenize(clause).map((t) => {
    const surface = normalizeText(t.text).replace(/’/g, "'");
    const number = parseSmallNumber(surface);
    return number === undefined
      ? { surface, norm: t.norm, content: isContent(t) }
      : { surface: String(number), norm: String(number), content: true };
  });
}

/** A lexicon word, or one with a negation glued on by the segmenter (不喜欢, 没结婚). */
function lexiconEntry(words: readonly Word[], i: number): { entry: LexEntry; negated: boolean } | undefined {
  const w = words[i];
  if (!w) return undefined;
  const direct = LEXICON.get(w.surface);
  if (direct && (direct.next === undefined || direct.next.includes(words[i + 1]?.surface ?? ""))) return { entry: direct, negated: false };
  for (const prefix of ["不", "没有", "没", "未"]) {
    if (!w.surface.startsWith(prefix)) continue;
    const rest = LEXICON.get(w.surface.slice(prefix.length));
    if (rest && rest.slot !== "copula") return { entry: rest, negated: true };
  }
  return undefined;
}

const isMarker = (w: Word) => CHANGE_MARKERS.has(w.surface) || PAST_MARKERS.has(w.surface) || NEGATIONS.has(w.surface);

function frameOf(clause: string, speaker: readonly string[]): Frame {
  const words = wordsOf(clause);
  // The predicate: the first lexicon word; a copula only when no other lexicon word follows.
  let at = -1;
  let found: { entry: LexEntry; negated: boolean } | undefined;
  for (let i = 0; i < words.length; i++) {
    const hit = lexiconEntry(words, i);
    if (!hit) continue;
    if (hit.entry.slot !== "copula") {
      at = i;
      found = hit;
      break;
    }
    if (at < 0) {
      at = i;
      found = hit;
    }
  }
  // Age: a number followed by "years old" / 岁.
  for (let i = 0; i < words.length && found?.entry.slot !== "age"; i++) {
    const w = words[i];
    const next = words[i + 1];
    if (!w || !/^\d+$/.test(w.surface)) continue;
    if (next?.surface === "岁" || (/^years?$/.test(next?.surface ?? "") && words[i + 2]?.surface === "old")) {
      found = { entry: { slot: "age", positive: true }, negated: false };
      at = i;
    }
  }
  const last = words.at(-1);
  const saidChange = words.some((w) => CHANGE_MARKERS.has(w.surface) || CHANGE_NEGATIONS.has(w.surface)) || found?.entry.change === true;
  // Clause-final 了 marks a new state (我不喜欢猫了, 他31岁了) of a known slot; in a narrative it is as
  // often the plain perfective (和好了, 开心极了), so it does not make an update of shared words alone.
  const change = saidChange || last?.surface === "了";
  const past = words.some(
    (w, i) =>
      PAST_MARKERS.has(w.surface) ||
      (w.surface === "used" && words[i + 1]?.surface === "to") ||
      // 十天前, 三年前: a time ago (十天|前 or 十|天前, however the segmenter cut it).
      /(?:天|年|月|周)前$/u.test(w.surface) ||
      (w.surface === "前" && /(?:天|年|月|周)$/u.test(words[i - 1]?.surface ?? "")),
  );
  // A copula's negation may follow it ("is not vegetarian"); another predicate's comes before it.
  const anywhere = found === undefined || found.entry.slot === "copula";
  const negated = (found?.negated ?? false) !== words.some((w, i) => NEGATIONS.has(w.surface) && (anywhere || i < at));
  const isAge = found?.entry.slot === "age";
  // Chinese 在X工作: the object sits between 在 and the predicate, the subject before 在.
  const zai = at > 0 ? words.slice(0, at).findIndex((w) => w.surface === "在") : -1;
  const subjectEnd = at < 0 ? 0 : zai >= 0 ? zai : at;
  const subject = new Set<string>();
  for (const w of words.slice(0, subjectEnd)) {
    if (isMarker(w)) continue;
    if (FIRST_PERSON.has(w.surface) && speaker.length > 0) for (const s of speaker) subject.add(s);
    else if (PRONOUNS.has(w.surface) || (w.content && !isCalendarWord(w.norm))) subject.add(w.norm);
  }
  const objectWords = at < 0 ? [] : [...(zai >= 0 ? words.slice(zai + 1, at) : []), ...words.slice(at + 1)];
  const object = new Set(
    isAge
      ? words.filter((w) => /^\d+$/.test(w.surface)).map((w) => w.surface)
      : objectWords.filter((w) => w.content && !isMarker(w) && !LEXICON.has(w.surface)).map((w) => w.norm),
  );
  const wordSet = new Set(words.filter((w) => w.content && !isMarker(w)).map((w) => w.norm));
  return {
    slot: found?.entry.slot ?? null,
    positive: found?.entry.positive ?? true,
    negated,
    change,
    saidChange,
    past,
    subject,
    object,
    words: wordSet,
  };
}

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => b.has(x)));
}

function minus(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => !b.has(x)));
}

/** Objects name the same thing: both empty, one inside the other, or half their words shared. */
function sameObject(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 && b.size === 0) return true;
  if (a.size === 0 || b.size === 0) return false;
  const shared = intersect(a, b).size;
  return shared === a.size || shared === b.size || shared / (a.size + b.size - shared) >= 0.5;
}

function compatibleSubjects(a: Frame, b: Frame): boolean {
  return a.subject.size === 0 || b.subject.size === 0 || intersect(a.subject, b.subject).size > 0;
}

function judgeClauses(a: Frame, b: Frame, entityWords: ReadonlySet<string>): ConflictVerdict {
  if (!compatibleSubjects(a, b)) return "unrelated";
  const past = a.past || b.past;
  const opposite = (a.positive !== a.negated) !== (b.positive !== b.negated);
  if (a.slot !== null && a.slot === b.slot && a.slot !== "copula") {
    if (sameObject(a.object, b.object)) {
      if (!opposite) return "same";
      if (past) return "unrelated";
      return b.change ? "update" : "contradiction";
    }
    if (past || opposite) return "unrelated";
    return SINGLE_VALUED.has(a.slot) && !a.negated && !b.negated ? "update" : "unrelated";
  }
  // No common slot: the predicate is what both clauses say, the content words they share.
  const wordsA = minus(a.words, entityWords);
  const wordsB = minus(b.words, entityWords);
  const shared = intersect(wordsA, wordsB);
  const negationDiffers = a.negated !== b.negated;
  if (shared.size === 0) {
    // Nothing but the entity on both sides: only a negation says anything.
    if (wordsA.size === 0 && wordsB.size === 0) return negationDiffers && !past ? (b.change ? "update" : "contradiction") : "unrelated";
    const copulas = a.slot === "copula" && b.slot === "copula";
    return copulas && b.change && !past && !negationDiffers ? "update" : "unrelated";
  }
  const restA = minus(wordsA, shared);
  const restB = minus(wordsB, shared);
  const union = wordsA.size + wordsB.size - shared.size;
  // One says nothing the other does not (a paraphrase, or the same fact with a detail more).
  if (restA.size === 0 || restB.size === 0 || shared.size / union >= 0.75) {
    if (!negationDiffers) return "same";
    if (past) return "unrelated";
    return b.change ? "update" : "contradiction";
  }
  if (past || negationDiffers) return "unrelated";
  // A change marker with one word in common out of many ("开心" in two outings that were both fun)
  // is two facts, not a newer value of one: the shared predicate must be a fair part of the shorter.
  return b.saidChange && shared.size / Math.min(wordsA.size, wordsB.size) >= MIN_SHARED_FOR_UPDATE ? "update" : "unrelated";
}

/** Share of the shorter clause's content words both must have in common for a change marker to make an update. */
const MIN_SHARED_FOR_UPDATE = 0.3;

const PRIORITY: readonly ConflictVerdict[] = ["unrelated", "same", "update", "contradiction"];

function clausesOf(text: string): { speaker: string[]; clauses: string[] } {
  const cleaned = text.replace(DATE_NOTE, "");
  const speakerMatch = SPEAKER.exec(cleaned);
  // "Alice: I moved…": the first person is the speaker (compared by the tokenizer's norms).
  const speaker = speakerMatch?.[1] ? tokenize(speakerMatch[1]).map((t) => t.norm) : [];
  const body = speakerMatch ? cleaned.slice(speakerMatch[0].length) : cleaned;
  return { speaker, clauses: body.split(CLAUSE_BREAK).filter((c) => c.trim() !== "") };
}

function framesOf(text: string): Frame[] {
  const { speaker, clauses } = clausesOf(text);
  return clauses.map((c) => frameOf(c, speaker));
}

/**
 * Texts and entity names already parsed, most recently used kept. A new memory is compared with up
 * to five earlier ones per entity, and an earlier one with every later one about its entities, so
 * without it the same text is parsed again for every pair (most of a remember's time, measured; in
 * Chinese even the entity names, as every segmenter call has a set-up cost). What it holds is read,
 * never changed. One cache per model instance, i.e. per agent: never shared between tenants, whose
 * texts must not even change each other's timing.
 */
export class ParseCache {
  private readonly frames = new LruMap<string, Frame[]>(2048);
  private readonly names = new LruMap<string, string[]>(1024);

  framesOf(text: string): Frame[] {
    return this.frames.getOrSet(text, framesOf);
  }

  nameWords(name: string): string[] {
    return this.names.getOrSet(name, nameWords);
  }
}

function nameWords(name: string): string[] {
  return tokenize(name).map((t) => t.norm);
}

/** The local verdict on one pair (see the rules above); `cache` keeps parsed texts between pairs. */
export function judgeConflict(pair: ConflictPair, cache: ParseCache = new ParseCache()): ConflictVerdict {
  const entityWords = new Set(pair.entities.flatMap((e) => cache.nameWords(e)));
  const framesA = cache.framesOf(pair.earlier);
  const framesB = cache.framesOf(pair.later);
  let best: ConflictVerdict = "unrelated";
  for (const a of framesA) {
    for (const b of framesB) {
      const verdict = judgeClauses(a, b, entityWords);
      if (PRIORITY.indexOf(verdict) > PRIORITY.indexOf(best)) best = verdict;
    }
  }
  return best;
}
