/**
 * A text as the conflict rules read it (judge.ts): its speaker ("Alice: …"), whether it opens by
 * denying what was said, and the frames of its statements (frame.ts), clause by clause: a question
 * asserts nothing; the dates this service notes after relative times are not part of a fact; a
 * person noun defined by a habit also states the habit ("Bob is vegetarian": eats no meat).
 */
import { deniedHabit } from "../noun-kinds";
import { LruMap } from "../lru-map";
import type { TagMemo } from "../tagging/tagged-words";
import { statesSomething } from "./clause-words";
import { frameOf, type Frame } from "./frame";
import { DENIALS } from "./lexicon";

/** A clause ends at sentence punctuation, a comma, a semicolon, a line break, or "but"/但是. */
const CLAUSE_BREAK =
  /[。！？!?；;，,:：\n]+|\.(?=\s|$)|\s[-–—]+\s|\s+but\s+|\s+so\s+(?=(?:i|we|you|he|she|they|it|now|that|the|my|our|his|her|their)\b)|但是|可是|不过|所以/iu;
/** A sentence that asks: its clauses assert nothing. */
const QUESTION_END = /[?？][\s"'”’)）」』]*$/u;
const QUESTION_PARTICLE = /[吗呢][\s。！!]*$/u;
/** The absolute dates this service adds after relative times ("昨天（2025-11-04）"): not part of a fact. */
const DATE_NOTE = /\s?[（(](?:the week of )?\d{4}(?:-\d{2}(?:-\d{2})?)?(?:那一周|年|月)?[）)]/gu;
const SPEAKER = /^([^:：\n]{1,64})[:：]\s*/u;

export interface Parsed {
  speaker: string | null;
  /** The speaker's name as words (what "I" stands for). */
  speakerWords: string[];
  denies: boolean;
  frames: Frame[];
  /** Clauses that state something, parsed into a frame or not: not a question, a predicate word and a thing. */
  statements: number;
}

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
