/**
 * Okapi BM25, the same-run baseline: over LoCoMo raw turns (English content words, question as query)
 * and over MADial memory records (Chinese words).
 *
 * Parameters k1 = 1.2 and b = 0.75: the textbook defaults (Robertson & Zaragoza; Lucene, Elasticsearch
 * and rank_bm25 use them), so the baseline is the one anybody would reproduce, not one tuned here.
 * idf = ln(1 + (N − df + 0.5) / (df + 0.5)), Lucene's variant, which stays positive for terms in more
 * than half of the documents (the original formula goes negative and would penalise them).
 * Query terms are used once each: a question repeating a word should not double its weight.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface Bm25Hit {
  /** Index of the document in the array given to `createBm25`. */
  index: number;
  score: number;
}

export interface Bm25Index {
  readonly size: number;
  /**
   * The documents that share at least one term with the query, best first, at most `limit`.
   * Ties (equal scores) go to the lower document index, so runs are reproducible. Documents scoring 0
   * are left out: ranking them would be an arbitrary order that could still "find" evidence.
   */
  search(query: readonly string[], limit: number): Bm25Hit[];
}

export function createBm25(documents: readonly (readonly string[])[], options: Bm25Options = {}): Bm25Index {
  const k1 = options.k1 ?? BM25_K1;
  const b = options.b ?? BM25_B;
  const n = documents.length;
  const lengths = documents.map((d) => d.length);
  const avgLength = n === 0 ? 0 : lengths.reduce((a, x) => a + x, 0) / n;
  // term → (document index → term frequency); postings keep the document order.
  const postings = new Map<string, Map<number, number>>();
  documents.forEach((doc, i) => {
    for (const term of doc) {
      let p = postings.get(term);
      if (!p) postings.set(term, (p = new Map()));
      p.set(i, (p.get(i) ?? 0) + 1);
    }
  });

  const idf = (df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

  return {
    size: n,
    search(query, limit) {
      const scores = new Map<number, number>();
      for (const term of new Set(query)) {
        const p = postings.get(term);
        if (!p) continue;
        const w = idf(p.size);
        for (const [doc, tf] of p) {
          const len = lengths[doc] ?? 0;
          const norm = avgLength === 0 ? 1 : 1 - b + (b * len) / avgLength;
          scores.set(doc, (scores.get(doc) ?? 0) + (w * tf * (k1 + 1)) / (tf + k1 * norm));
        }
      }
      return [...scores]
        .map(([index, score]) => ({ index, score }))
        .sort((x, y) => y.score - x.score || x.index - y.index)
        .slice(0, Math.max(0, limit));
    },
  };
}
