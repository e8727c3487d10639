/**
 * The context block as a scored configuration (issue 12): the same agents, the same questions, but
 * instead of recall's ranked list the block `POST /context` returns for the question at a budget of
 * 256, 512 or 1,024 tokens. The block fits its budget by construction (the API's upper-bound token
 * estimate, docs/design.md §12), headers and energy marks included, so every memory in it counts: its
 * evidence recall is the share of evidence turns any of its memories finds, next to BM25's recall
 * within the same budget (items in rank order while they fit, lib/metrics.ts; BM25 ranks up to
 * CONTEXT_BASELINE_LIMIT items here so that its budget, too, is filled).
 *
 * Only the memories section is asked for. Episodes list every message of their submission as their
 * source, so by exact ids one episode would "find" a whole session; they are left out rather than
 * scored by a rule that flatters them.
 */
import { blockRecall, type Budget, type EvidenceTurn, type RetrievedItem, type ScoringOptions } from "../lib/metrics";
import { POOLED_CATEGORIES, type Aggregate } from "../lib/aggregate";
import { approxTokens, type Lang } from "../lib/tokens";
import { fmt, type Table } from "../lib/table";
import type { AgentApi } from "../driver/agent-api";

export const CONTEXT_BUDGETS = [256, 512, 1024] as const satisfies readonly Budget[];
export type ContextBudget = (typeof CONTEXT_BUDGETS)[number];

/**
 * Items BM25 ranks for the comparison: more than fit 1,024 tokens of LoCoMo turns, so the budget, not
 * the list, ends it, as it ends the block (recall's 20-item list would cap BM25 at ~500 tokens).
 */
export const CONTEXT_BASELINE_LIMIT = 100;

/** The API's longest free-text query. */
const MAX_QUERY_CHARS = 2000;

export interface ContextAnswer {
  items: RetrievedItem[];
  /** The API's estimate of the block's tokens (never above the budget). */
  usedTokens: number;
  /** The block's tokens as the benchmark counts them (`approxTokens`, the budgets' unit). */
  benchTokens: number;
}

export type ContextAnswers = Record<ContextBudget, ContextAnswer[]>;

/** Asks the block for every question at every budget. */
export async function askContexts(
  agent: AgentApi,
  texts: readonly string[],
  lang: Lang,
  progress: (done: number, total: number) => void,
): Promise<ContextAnswers> {
  const answers: ContextAnswers = { 256: [], 512: [], 1024: [] };
  const total = texts.length * CONTEXT_BUDGETS.length;
  let done = 0;
  for (const budget of CONTEXT_BUDGETS) {
    for (const text of texts) {
      const { value } = await agent.context({
        query: text.slice(0, MAX_QUERY_CHARS),
        budget_tokens: budget,
        include: ["memories"],
        locale: lang,
      });
      answers[budget].push({
        items: value.memories.map((m) => ({ sourceIds: m.source_message_ids, text: m.content })),
        usedTokens: value.used_tokens,
        benchTokens: approxTokens(value.text),
      });
      done += 1;
      progress(done, total);
    }
  }
  return answers;
}

/** One question's block at one budget, scored. */
export interface ContextRow {
  category: number;
  exact: number;
  text: number;
  usedTokens: number;
  benchTokens: number;
  items: number;
}

export type ContextRows = Record<ContextBudget, ContextRow[]>;

export const emptyContextRows = (): ContextRows => ({ 256: [], 512: [], 1024: [] });

/** Scores each question's blocks against its evidence; `questions[i]` was asked as `answers[b][i]`. */
export function scoreContexts<Q>(
  rows: ContextRows,
  questions: readonly Q[],
  answers: ContextAnswers,
  evidenceOf: (q: Q) => EvidenceTurn[],
  categoryOf: (q: Q) => number,
  options: ScoringOptions,
): void {
  for (const budget of CONTEXT_BUDGETS) {
    for (const [i, q] of questions.entries()) {
      const answer = answers[budget][i];
      if (!answer) continue;
      const recall = blockRecall(answer.items, evidenceOf(q), options);
      rows[budget].push({
        category: categoryOf(q),
        ...recall,
        usedTokens: answer.usedTokens,
        benchTokens: answer.benchTokens,
        items: answer.items.length,
      });
    }
  }
}

export interface ContextSummary {
  budget: ContextBudget;
  questions: number;
  exact: number;
  text: number;
  /** BM25's recall within the same budget (same questions), exact ids and text scoring. */
  bm25: { exact: number; text: number } | null;
  meanUsedTokens: number;
  meanBenchTokens: number;
  meanItems: number;
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, x) => a + x, 0) / xs.length);

/**
 * Means per budget over the questions that count: LoCoMo categories 1–4 (as the pooled tables), every
 * MADial item. `baseline` is BM25's aggregate over the same questions.
 */
export function summarizeContexts(rows: ContextRows, pooledOnly: boolean, baseline: Aggregate | null): ContextSummary[] {
  return CONTEXT_BUDGETS.map((budget) => {
    const counted = rows[budget].filter((r) => !pooledOnly || POOLED_CATEGORIES.includes(r.category));
    return {
      budget,
      questions: counted.length,
      exact: mean(counted.map((r) => r.exact)),
      text: mean(counted.map((r) => r.text)),
      bm25: baseline ? { exact: baseline.exact.budgetRecall[budget], text: baseline.text.budgetRecall[budget] } : null,
      meanUsedTokens: mean(counted.map((r) => r.usedTokens)),
      meanBenchTokens: mean(counted.map((r) => r.benchTokens)),
      meanItems: mean(counted.map((r) => r.items)),
    };
  });
}

const ratio = (a: number, b: number | undefined): string => (b === undefined || b === 0 ? "–" : fmt(a / b, 2));

export function contextTable(title: string, summaries: readonly ContextSummary[]): Table {
  return {
    title,
    headers: [
      "budget",
      "n",
      "block exact",
      "BM25 exact",
      "ratio",
      "block text",
      "BM25 text",
      "ratio",
      "API tokens",
      "bench tokens",
      "memories",
    ],
    rows: summaries.map((s) => [
      String(s.budget),
      String(s.questions),
      fmt(s.exact),
      fmt(s.bm25?.exact),
      ratio(s.exact, s.bm25?.exact),
      fmt(s.text),
      fmt(s.bm25?.text),
      ratio(s.text, s.bm25?.text),
      fmt(s.meanUsedTokens, 0),
      fmt(s.meanBenchTokens, 0),
      fmt(s.meanItems, 1),
    ]),
  };
}
