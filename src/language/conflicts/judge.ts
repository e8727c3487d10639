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
import type { ConflictVerdict } from "../../vocabulary/conflict-verdicts";
import { isKindOf } from "../noun-kinds";
import type { Frame } from "./frame";
import { IMMUTABLE, SINGLE_VALUED } from "./lexicon";
import { ParseCache, type Parsed } from "./parse";

/** Two texts, `earlier` remembered before `later` (a model's ConflictPair is one, with its entities). */
export interface StatementPair {
  earlier: string;
  later: string;
}

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

/**
 * The classical filter both providers apply (docs/design.md, "Models": the model is asked only about the
 * candidates classical filters leave open): a pair can be an update or a contradiction only when
 * each memory states something (a question, thanks, a greeting, "No worries!" do not), and, when
 * two speakers said them, when a subject of one can be a subject of the other. Pairs it closes are
 * unrelated, whoever judges them.
 */
export function mayConflict(pair: StatementPair, cache: ParseCache = new ParseCache()): boolean {
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

export function judgeConflict(pair: StatementPair, cache: ParseCache = new ParseCache()): ConflictVerdict {
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
