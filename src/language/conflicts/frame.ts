/**
 * The frame of one clause (judge.ts compares them): only clauses that state something get one; a
 * clause without a predicate (thanks, greetings, "No worries!", "Black coffee, and no lunch
 * meetings") has none. A frame holds:
 *
 * - the subject: the words before the predicate; I/we/my (我, 我们, 我家) stand for the speaker of
 *   the text ("Alice: I moved…"), you (你) for the other speaker of the pair;
 * - the predicate: a word of the slot lexicon (lexicon.ts: lives/moved; works at/job, lost my job;
 *   likes/hates; favourite; married/single; has; age), a thing's place or time ("is in the mill",
 *   "is on Monday"), a state (很紧张, "is nervous"), else the clause's main verb (its lemma), else a
 *   copula;
 * - the object: the content words after it; negation; markers of change ("now", "moved", 现在,
 *   搬到, 换) and of the past ("used to", 以前); a time both texts anchor to (今年, "this year").
 */
import { isKindOf, isKnownNoun } from "../noun-kinds";
import { parseSmallNumber } from "../number-words";
import type { TagMemo } from "../tagging/tagged-words";
import { isCalendarWord } from "../time/calendar-words";
import { wordsOf, type Word } from "./clause-words";
import {
  ASPECT_BEGIN,
  ASPECT_END,
  BEFORE_LOCATIVE,
  CHANGE_MARKERS,
  CHANGE_NEGATIONS,
  EN_DEGREE,
  ENDED_SLOTS,
  ENDING_VERBS,
  EVER_NEGATIONS,
  FIRST_PERSON,
  LEXICON,
  LIFELONG_MARKERS,
  LOCATIVES,
  NEGATIONS,
  OTHER_PRONOUNS,
  PAST_MARKERS,
  SECOND_PERSON,
  TIME_ANCHORS,
  WEAK,
  WORK_NEXT,
  ZH_DEGREE,
  ZH_LOCALISERS,
  type LexEntry,
  type Slot,
} from "./lexicon";

export interface Frame {
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

const AGE_WORD = /^(\d+|[一二两三四五六七八九十]+)岁$/u;
const YEARS = /^years?$/;

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

const isLifelong = (words: readonly Word[]): boolean =>
  words.some(
    (w, i) =>
      LIFELONG_MARKERS.has(w.surface) ||
      (w.lemma === "life" && ["whole", "entire", "all"].some((q) => words[i - 1]?.surface === q || words[i - 2]?.surface === q)),
  );

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
export function frameOf(clause: string, speakerWords: readonly string[], memo: TagMemo | undefined): Frame | null {
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
