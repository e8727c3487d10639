/**
 * BM25 over a list of candidate documents, with the corpus statistics given (document count,
 * total tokens, each token's document frequency): the agent's own, for agents whose full-text
 * search runs in D1 (src/operations/shared/search-lists.ts). FTS5 keeps its statistics per table, shared by
 * every agent of the database, so its bm25() would let one tenant's data move another's scores.
 * Here FTS5 only finds the candidates and counts within the agent's rowid range; the scores are the
 * same Okapi BM25 as the in-memory index (bm25-index.ts): a term's tokens must all be in a document,
 * a term absent from the corpus adds nothing.
 */
import { bm25Idf, bm25TokenScore, indexTokens, type Bm25Hit, type CorpusStatistics } from "./bm25-index";

export type CorpusStats = CorpusStatistics;

/** The distinct index tokens of query terms (what the caller counts document frequencies for). */
export function queryTokens(queryTerms: readonly string[]): string[] {
  return [...new Set(queryTerms.flatMap(indexTokens))];
}

export function scoreCandidates(
  queryTerms: readonly string[],
  candidates: readonly { id: number; terms: string }[],
  stats: CorpusStats,
  limit: number,
): Bm25Hit[] {
  if (stats.documents === 0 || limit <= 0) return [];
  const averageLength = stats.tokens / stats.documents;
  const scores = new Map<number, number>();
  const docs = candidates.map((c) => {
    const tokens = indexTokens(c.terms);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id: c.id, length: tokens.length, tf };
  });
  for (const term of queryTerms) {
    const tokens = indexTokens(term);
    const dfs = tokens.map((t) => stats.documentFrequency.get(t) ?? 0);
    if (tokens.length === 0 || dfs.some((df) => df === 0)) continue;
    const idfs = dfs.map((df) => bm25Idf(df, stats.documents));
    for (const doc of docs) {
      if (!tokens.every((t) => doc.tf.has(t))) continue;
      let score = 0;
      tokens.forEach((t, i) => (score += bm25TokenScore(idfs[i] ?? 0, doc.tf.get(t) ?? 0, doc.length, averageLength)));
      scores.set(doc.id, (scores.get(doc.id) ?? 0) + score);
    }
  }
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || b.id - a.id)
    .slice(0, limit);
}
