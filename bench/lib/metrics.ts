/**
 * Retrieval metrics for one question, given the ranked items a configuration returned and the gold
 * evidence turns; aggregation over questions lives in `aggregate.ts`.
 *
 * Two scoring modes, computed side by side:
 * - exact: an evidence turn is found at k if one of the top-k items lists its id among `sourceIds`;
 * - text: it is found at k if one of the top-k items matches its text (`text-score.ts`), item by item.
 * Per mode: evidence recall@k (found turns / evidence turns), hit@k (any found), MRR@10 (1 / rank of
 * the first item that finds any evidence turn, 0 past rank 10) and recall at text budgets.
 *
 * Pure module, runs in workerd.
 */
import { textMatches } from "./text-score";
import { approxTokens } from "./tokens";

export const KS = [1, 5, 10, 20] as const;
export type K = (typeof KS)[number];
export const BUDGETS = [256, 512, 1024, 2048] as const;
export type Budget = (typeof BUDGETS)[number];
/** MRR is cut at this rank. */
export const MRR_CUTOFF = 10;

/** Builds a per-k record without casts; the key order (1, 5, 10, 20) is the JSON order. */
export function perK<T>(f: (k: K) => T): Record<K, T> {
  return { 1: f(1), 5: f(5), 10: f(10), 20: f(20) };
}

/** Builds a per-budget record (256, 512, 1024, 2048). */
export function perBudget<T>(f: (b: Budget) => T): Record<Budget, T> {
  return { 256: f(256), 512: f(512), 1024: f(1024), 2048: f(2048) };
}

/** One item a configuration returned, in rank order. */
export interface RetrievedItem {
  /** Ids of the messages the item came from (empty when the output has none). */
  sourceIds: readonly string[];
  text: string;
}

/** One gold evidence turn (LoCoMo turn or MADial memory record). */
export interface EvidenceTurn {
  id: string;
  /** The remembered content, for text scoring. */
  text: string;
}

export interface ScoringOptions {
  /** Content words of a text: `contentWordSet` bound to the dataset's language and speaker names. */
  words: (text: string) => ReadonlySet<string>;
  /** Token count of an item's text for budgets and recalled tokens; `approxTokens` by default. */
  tokens?: (text: string) => number;
}

export interface ModeScores {
  recall: Record<K, number>;
  hit: Record<K, number>;
  mrr10: number;
  /** Recall over the items taken in rank order while their running token total fits the budget. */
  budgetRecall: Record<Budget, number>;
}

export interface QuestionScores {
  exact: ModeScores;
  text: ModeScores;
  /** Tokens of all the items returned for the question. */
  recalledTokens: number;
  /** Number of items returned. */
  items: number;
}

/**
 * Number of leading items that fit `budget`: items are taken in rank order while the running total
 * fits, stopping at the first that does not (skipping it to take smaller ones further down would reward
 * returning many items).
 */
export function itemsWithinBudget(itemTokens: readonly number[], budget: number): number {
  let total = 0;
  let n = 0;
  for (const t of itemTokens) {
    if (total + t > budget) break;
    total += t;
    n += 1;
  }
  return n;
}

/** `firstRanks[e]` = 0-based rank of the first item finding evidence turn e (Infinity if none). */
function modeScores(firstRanks: readonly number[], itemTokens: readonly number[]): ModeScores {
  const found = (n: number): number => firstRanks.filter((r) => r < n).length;
  const best = Math.min(...firstRanks);
  return {
    recall: perK((k) => found(k) / firstRanks.length),
    hit: perK((k) => (best < k ? 1 : 0)),
    mrr10: best < MRR_CUTOFF ? 1 / (best + 1) : 0,
    budgetRecall: perBudget((b) => found(itemsWithinBudget(itemTokens, b)) / firstRanks.length),
  };
}

function firstRank(items: readonly RetrievedItem[], found: (item: RetrievedItem, index: number) => boolean): number {
  const i = items.findIndex(found);
  return i < 0 ? Infinity : i;
}

/** Scores one question. Throws when `evidence` is empty: recall would be 0/0. */
export function scoreQuestion(items: readonly RetrievedItem[], evidence: readonly EvidenceTurn[], options: ScoringOptions): QuestionScores {
  if (evidence.length === 0) throw new Error("scoreQuestion: a question needs at least one evidence turn");
  const tokens = options.tokens ?? approxTokens;
  const itemTokens = items.map((it) => tokens(it.text));
  const { exactRanks, textRanks } = evidenceRanks(items, evidence, options);
  return {
    exact: modeScores(exactRanks, itemTokens),
    text: modeScores(textRanks, itemTokens),
    recalledTokens: itemTokens.reduce((a, t) => a + t, 0),
    items: items.length,
  };
}

/** Per evidence turn, the 0-based rank of the first item finding it (Infinity if none), both modes. */
function evidenceRanks(
  items: readonly RetrievedItem[],
  evidence: readonly EvidenceTurn[],
  options: ScoringOptions,
): { exactRanks: number[]; textRanks: number[] } {
  const itemWords = items.map((it) => options.words(it.text));
  return {
    exactRanks: evidence.map((e) => firstRank(items, (it) => it.sourceIds.includes(e.id))),
    textRanks: evidence.map((e) => {
      const ew = options.words(e.text);
      return firstRank(items, (_it, i) => textMatches(ew, itemWords[i] ?? new Set()));
    }),
  };
}

/**
 * Evidence recall of a whole answer that already fits its budget (a context block): the share of
 * evidence turns any of its items finds, both modes. Throws when `evidence` is empty, as scoreQuestion.
 */
export function blockRecall(
  items: readonly RetrievedItem[],
  evidence: readonly EvidenceTurn[],
  options: ScoringOptions,
): { exact: number; text: number } {
  if (evidence.length === 0) throw new Error("blockRecall: a question needs at least one evidence turn");
  const { exactRanks, textRanks } = evidenceRanks(items, evidence, options);
  const share = (ranks: readonly number[]): number => ranks.filter((r) => r < Infinity).length / ranks.length;
  return { exact: share(exactRanks), text: share(textRanks) };
}
