/**
 * Answer-bearing scoring (issue 23): exact-id scoring flatters any forgetting that shortens texts but
 * keeps their ids (a turn cut to its first words keeps its id and loses the answer), so an evidence
 * turn also has to still hold the answer.
 *
 * With A = the content words of the question's answer (the reference rule, lib/tokens.ts, the two
 * speakers' names removed) and W(e) = A ∩ the content words of evidence turn e:
 * - a question is **grounded** when A is not empty and every word of A is in some evidence turn's
 *   text (∪ W(e) = A); the others (answers that paraphrase or infer: "Yes", "likely no", a date
 *   worked out from "last week") have nothing a text could keep and are left out;
 * - its **answer-bearing turns** are the evidence turns with W(e) not empty (a turn that only sets
 *   the scene bears no answer word to lose);
 * - an answer-bearing turn e is found at k when one of the top-k items carries e's id among its
 *   sources and that item's text, as returned, holds at least half of W(e).
 * Recall@k = found answer-bearing turns ÷ answer-bearing turns, per grounded question.
 *
 * Pure module, runs in workerd.
 */
import { perK, type K, type RetrievedItem } from "./metrics";

export interface BearingTurn {
  id: string;
  /** W(e): the answer's content words this evidence turn holds. */
  words: ReadonlySet<string>;
}

/**
 * The answer-bearing turns of a grounded question, or null when it is not grounded. `words` is the
 * content-word rule bound to the conversation (locomoScoringOptions).
 */
export function bearingTurns(
  answer: string | undefined,
  evidence: readonly { id: string; text: string }[],
  words: (text: string) => ReadonlySet<string>,
): BearingTurn[] | null {
  if (answer === undefined) return null;
  const answerWords = words(answer);
  if (answerWords.size === 0) return null;
  const turns = evidence.map((e) => {
    const held = words(e.text);
    return { id: e.id, words: new Set([...answerWords].filter((w) => held.has(w))) };
  });
  const covered = new Set(turns.flatMap((t) => [...t.words]));
  if (covered.size < answerWords.size) return null;
  return turns.filter((t) => t.words.size > 0);
}

/** True when `text` (its content words) holds at least half of `turn`'s answer words. */
export function holdsAnswer(turn: BearingTurn, itemWords: ReadonlySet<string>): boolean {
  let shared = 0;
  for (const w of turn.words) if (itemWords.has(w)) shared += 1;
  return 2 * shared >= turn.words.size;
}

/** Answer-bearing recall@k of one grounded question's ranked items. Throws on no bearing turns (0/0). */
export function answerBearingRecall(
  items: readonly RetrievedItem[],
  turns: readonly BearingTurn[],
  words: (text: string) => ReadonlySet<string>,
): Record<K, number> {
  if (turns.length === 0) throw new Error("answerBearingRecall: a grounded question has at least one answer-bearing turn");
  const itemWords = items.map((it) => words(it.text));
  const ranks = turns.map((t) => {
    const i = items.findIndex((it, r) => it.sourceIds.includes(t.id) && holdsAnswer(t, itemWords[r] ?? new Set()));
    return i < 0 ? Infinity : i;
  });
  return perK((k) => ranks.filter((r) => r < k).length / ranks.length);
}

/** `pooled.answerBearing`: grounded questions and their mean answer-bearing recall@k. */
export interface AnswerBearingSummary {
  grounded: number;
  recall: Record<K, number>;
}

/** Means over the grounded questions' recalls; null when none is grounded. */
export function summarizeAnswerBearing(recalls: readonly (Record<K, number> | null | undefined)[]): AnswerBearingSummary | null {
  const grounded = recalls.filter((r): r is Record<K, number> => r !== null && r !== undefined);
  if (grounded.length === 0) return null;
  const mean = (k: K) => grounded.reduce((a, r) => a + r[k], 0) / grounded.length;
  return { grounded: grounded.length, recall: perK(mean) };
}
