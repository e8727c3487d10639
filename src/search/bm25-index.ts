/**
 * BM25 over one agent's nodes, with that agent's own statistics (document count, average length,
 * document frequencies). FTS5 in D1 keeps its statistics per table, i.e. shared by every agent of
 * the database, so one agent's scores moved as other agents' data grew: a small cross-agent
 * influence that "isolation is absolute" does not allow. The agent's object holds this index beside
 * its in-memory graph (built on first use, kept exact on every insert, compression and deletion);
 * D1's FTS5 remains the path for agents too large to cache.
 *
 * Documents and queries are the full-text index's own terms (fts-text.ts), split the way FTS5's
 * unicode61 tokenizer splits them (at anything but letters, marks and digits). A query matches a
 * document holding any of its terms, as the FTS5 expression `"a" OR "b"` does; a term that splits
 * into several tokens needs all of them. Scores: Okapi BM25, k1 = 1.2, b = 0.75 (FTS5's defaults),
 * idf = ln(1 + (N − df + 0.5) / (df + 0.5)), always positive.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

const SPLIT = /[^\p{L}\p{M}\p{N}]+/u;

/** BM25's inverse document frequency of a term in `df` of `total` documents; always positive. */
export function bm25Idf(df: number, total: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/** One token's contribution to a document's score: `tf` occurrences in a document of `length` tokens. */
export function bm25TokenScore(idf: number, tf: number, length: number, averageLength: number): number {
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / averageLength);
  return (idf * tf * (BM25_K1 + 1)) / (tf + norm);
}

/** Index tokens of a space-separated term string (ftsDocument's output, or one query term). */
export function indexTokens(terms: string): string[] {
  return terms
    .toLowerCase()
    .split(SPLIT)
    .filter((t) => t !== "");
}

/** Document count, total tokens and per-token document frequencies of one agent's documents. */
export interface CorpusStatistics {
  documents: number;
  tokens: number;
  documentFrequency: ReadonlyMap<string, number>;
}

export interface Bm25Hit {
  id: number;
  score: number;
}

export class Bm25Index {
  /** token → (document → term frequency) */
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly docTokens = new Map<number, string[]>();
  private totalLength = 0;

  get size(): number {
    return this.docTokens.size;
  }

  /**
   * The index of `documents` (distinct ids) built at once, each distinct term tokenised once: the
   * same index as add() for each (indexTokens splits at spaces too, and lower-cases within a word),
   * for a wake's first search over thousands of documents sharing one vocabulary.
   */
  static of(documents: Iterable<readonly [number, string]>): Bm25Index {
    const index = new Bm25Index();
    const tokensOf = new Map<string, string[]>();
    for (const [id, terms] of documents) {
      const tokens: string[] = [];
      for (const term of terms.split(" ")) {
        let split = tokensOf.get(term);
        if (!split) {
          split = indexTokens(term);
          tokensOf.set(term, split);
        }
        for (const token of split) tokens.push(token);
      }
      index.addTokens(id, tokens);
    }
    return index;
  }

  /** Adds or replaces a document, from its term string (ftsDocument). */
  add(id: number, terms: string): void {
    this.addTokens(id, indexTokens(terms));
  }

  private addTokens(id: number, tokens: string[]): void {
    this.remove(id);
    this.docTokens.set(id, tokens);
    this.totalLength += tokens.length;
    for (const token of tokens) {
      let docs = this.postings.get(token);
      if (!docs) {
        docs = new Map();
        this.postings.set(token, docs);
      }
      docs.set(id, (docs.get(id) ?? 0) + 1);
    }
  }

  remove(id: number): void {
    const tokens = this.docTokens.get(id);
    if (!tokens) return;
    this.docTokens.delete(id);
    this.totalLength -= tokens.length;
    for (const token of new Set(tokens)) {
      const docs = this.postings.get(token);
      if (!docs) continue;
      docs.delete(id);
      if (docs.size === 0) this.postings.delete(token);
    }
  }

  /** The agent's statistics for `tokens` (what FtsRepo.statistics counts in D1). */
  statistics(tokens: readonly string[]): CorpusStatistics {
    return {
      documents: this.docTokens.size,
      tokens: this.totalLength,
      documentFrequency: new Map(tokens.map((t) => [t, this.postings.get(t)?.size ?? 0])),
    };
  }

  /** The documents holding `token`. */
  withToken(token: string): Iterable<number> {
    return this.postings.get(token)?.keys() ?? [];
  }

  /**
   * The `limit` best documents for `queryTerms` (fts-text's ftsQueryTerms) among those `accept`s,
   * by score, then the newer (higher) id first, as the FTS5 query orders them.
   */
  search(queryTerms: readonly string[], limit: number, accept: (id: number) => boolean): Bm25Hit[] {
    const n = this.docTokens.size;
    if (n === 0 || limit <= 0) return [];
    const avgLength = this.totalLength / n;
    const scores = new Map<number, number>();
    for (const term of queryTerms) {
      const tokens = indexTokens(term);
      const lists = tokens.map((t) => this.postings.get(t));
      if (tokens.length === 0 || lists.some((l) => l === undefined)) continue;
      const postings = lists as Map<number, number>[];
      // Per token, once per query term: its postings and idf.
      const idfs = postings.map((docs) => bm25Idf(docs.size, n));
      const [first, ...rest] = postings;
      for (const id of first?.keys() ?? []) {
        if (!rest.every((docs) => docs.has(id)) || !accept(id)) continue;
        const length = this.docTokens.get(id)?.length ?? 0;
        let score = 0;
        for (let i = 0; i < postings.length; i++) score += bm25TokenScore(idfs[i] ?? 0, postings[i]?.get(id) ?? 0, length, avgLength);
        scores.set(id, (scores.get(id) ?? 0) + score);
      }
    }
    return [...scores]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || b.id - a.id)
      .slice(0, limit);
  }
}
