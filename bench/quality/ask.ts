/**
 * Asking an agent a list of questions, in one of the two query modes of the benchmark README:
 * - `question`: the question text as recall's free-text `query` (the API extracts its keywords);
 * - `keywords`: keywords the client extracts itself (`queryKeywords`: content words, unstemmed,
 *   names kept) as recall's `keywords`.
 * Recall asks for 20 items (the largest k); token budgets are applied over them in rank order.
 * Forgotten traces are not memories and are never scored.
 */
import type { AgentApi } from "../driver/agent-api";
import { memoriesOf } from "../driver/schemas";
import type { RetrievedItem } from "../lib/metrics";
import { queryKeywords, type Lang } from "../lib/tokens";

export type QueryMode = "question" | "keywords";
export const QUERY_MODES: readonly QueryMode[] = ["question", "keywords"];

/** Items per recall: the largest k of the metrics. */
export const RECALL_LIMIT = 20;
/** The API's longest free-text query. */
const MAX_QUERY_CHARS = 2000;

export interface Answers {
  /** Per question, the memories recalled, in rank order. */
  items: RetrievedItem[][];
  /** Client-side wall time of each recall, ms. */
  latenciesMs: number[];
  /** Questions for which no keyword was left (nothing asked, nothing found). */
  emptyQueries: number;
}

export async function askAll(
  agent: AgentApi,
  texts: readonly string[],
  lang: Lang,
  mode: QueryMode,
  progress: (done: number, total: number) => void,
): Promise<Answers> {
  const answers: Answers = { items: [], latenciesMs: [], emptyQueries: 0 };
  for (const [i, text] of texts.entries()) {
    const keywords = mode === "keywords" ? queryKeywords(text, lang) : [];
    if (mode === "keywords" && keywords.length === 0) {
      answers.items.push([]);
      answers.emptyQueries += 1;
      continue;
    }
    const request = mode === "question" ? { query: text.slice(0, MAX_QUERY_CHARS) } : { keywords };
    const recall = await agent.recall({ ...request, limit: RECALL_LIMIT });
    answers.latenciesMs.push(recall.ms);
    answers.items.push(memoriesOf(recall.value).map((m) => ({ sourceIds: m.source_message_ids, text: m.content })));
    progress(i + 1, texts.length);
  }
  return answers;
}
