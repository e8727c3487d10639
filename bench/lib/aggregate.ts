/**
 * Aggregation of per-question scores: means, per LoCoMo category and pooled over categories 1–4
 * (category 5, adversarial, apart), latency percentiles and ratios to the baseline.
 *
 * Pooled numbers are means over all questions of categories 1–4 (each question weighs the same), not
 * means of the category means: that is how LoCoMo results are usually quoted.
 *
 * Pure module, runs in workerd.
 */
import { summarizeAnswerBearing, type AnswerBearingSummary } from "./answer-bearing";
import { perBudget, perK, type Budget, type K, type ModeScores, type QuestionScores } from "./metrics";

export interface Aggregate {
  questions: number;
  exact: ModeScores;
  text: ModeScores;
  meanRecalledTokens: number;
  meanItems: number;
  /** LoCoMo, pooled only: answer-bearing recall of the grounded questions (answer-bearing.ts). */
  answerBearing?: AnswerBearingSummary | null;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;

function meanMode(modes: readonly ModeScores[]): ModeScores {
  return {
    recall: perK((k) => mean(modes.map((m) => m.recall[k]))),
    hit: perK((k) => mean(modes.map((m) => m.hit[k]))),
    mrr10: mean(modes.map((m) => m.mrr10)),
    budgetRecall: perBudget((b) => mean(modes.map((m) => m.budgetRecall[b]))),
  };
}

/** Means over questions; null when there are none (no 0/0 in the results). */
export function aggregate(scores: readonly QuestionScores[]): Aggregate | null {
  if (scores.length === 0) return null;
  return {
    questions: scores.length,
    exact: meanMode(scores.map((s) => s.exact)),
    text: meanMode(scores.map((s) => s.text)),
    meanRecalledTokens: mean(scores.map((s) => s.recalledTokens)),
    meanItems: mean(scores.map((s) => s.items)),
  };
}

export interface CategorisedScores {
  category: number;
  scores: QuestionScores;
  /** Answer-bearing recall@k (LoCoMo); null for a question that is not grounded, absent elsewhere. */
  answerBearing?: Record<K, number> | null;
}

export interface CategorySummary {
  /** Categories 1–4 together. */
  pooled: Aggregate | null;
  /** Each category present, keys "1".."5" in ascending order. */
  byCategory: Record<string, Aggregate>;
  /** Category 5 (adversarial): reported apart, never pooled. */
  adversarial: Aggregate | null;
}

export const POOLED_CATEGORIES: readonly number[] = [1, 2, 3, 4];
export const ADVERSARIAL_CATEGORY = 5;

export function summarizeByCategory(rows: readonly CategorisedScores[]): CategorySummary {
  const categories = [...new Set(rows.map((r) => r.category))].sort((a, b) => a - b);
  const byCategory: Record<string, Aggregate> = {};
  for (const c of categories) {
    const agg = aggregate(rows.filter((r) => r.category === c).map((r) => r.scores));
    if (agg) byCategory[String(c)] = agg;
  }
  const pooledRows = rows.filter((r) => POOLED_CATEGORIES.includes(r.category));
  const pooled = aggregate(pooledRows.map((r) => r.scores));
  const scored = pooledRows.some((r) => r.answerBearing !== undefined);
  return {
    pooled: pooled && scored ? { ...pooled, answerBearing: summarizeAnswerBearing(pooledRows.map((r) => r.answerBearing)) } : pooled,
    byCategory,
    adversarial: aggregate(rows.filter((r) => r.category === ADVERSARIAL_CATEGORY).map((r) => r.scores)),
  };
}

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

/**
 * Nearest-rank percentiles (the smallest value with at least p% of values at or below it): always an
 * observed value, no interpolation, so p99 of a few hundred latencies is a real request. Null if empty.
 */
export function percentiles(values: readonly number[]): Percentiles | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.max(0, Math.ceil((p * sorted.length) / 100) - 1)] ?? Number.NaN;
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99) };
}

/** A configuration's numbers divided by the baseline's; null where the baseline is 0. */
export interface ModeRatios {
  recall: Record<K, number | null>;
  hit: Record<K, number | null>;
  mrr10: number | null;
  budgetRecall: Record<Budget, number | null>;
}

export interface AggregateRatios {
  exact: ModeRatios;
  text: ModeRatios;
  meanRecalledTokens: number | null;
}

export const ratio = (value: number, baseline: number): number | null => (baseline === 0 ? null : value / baseline);

function modeRatios(m: ModeScores, base: ModeScores): ModeRatios {
  return {
    recall: perK((k) => ratio(m.recall[k], base.recall[k])),
    hit: perK((k) => ratio(m.hit[k], base.hit[k])),
    mrr10: ratio(m.mrr10, base.mrr10),
    budgetRecall: perBudget((b) => ratio(m.budgetRecall[b], base.budgetRecall[b])),
  };
}

export function ratiosToBaseline(config: Aggregate, baseline: Aggregate): AggregateRatios {
  return {
    exact: modeRatios(config.exact, baseline.exact),
    text: modeRatios(config.text, baseline.text),
    meanRecalledTokens: ratio(config.meanRecalledTokens, baseline.meanRecalledTokens),
  };
}
