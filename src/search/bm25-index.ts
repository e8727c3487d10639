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

import { PackedPostings, type PackedBm25 } from "./bm25-packed";

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

/** One token's postings as search reads them, from the maps or from the packed arrays. */
interface PostingList {
  size: number;
  ids(): Iterable<number>;
  tf(id: number): number;
}

export class Bm25Index {
  /** token → (document → term frequency) */
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly docTokens = new Map<number, string[]>();
  private totalLength = 0;
  /** Read as unpacked (fromPacked) until the first change builds the maps from it. */
  private packed: PackedPostings | undefined;

  get size(): number {
    return this.packed ? this.packed.documents : this.docTokens.size;
  }

  /** The index a packed copy holds (pack()'s output), read as it is until its first change. */
  static fromPacked(packed: PackedBm25): Bm25Index {
    const index = new Bm25Index();
    index.packed = new PackedPostings(packed);
    index.totalLength = index.packed.totalLength;
    return index;
  }

  /** The index as arrays (bm25-packed.ts): what the object's copy of the network stores. */
  pack(): PackedBm25 {
    if (this.packed) return this.packed.packed;
    const tokens = [...this.postings.keys()].sort();
    const offsets = new Int32Array(tokens.length + 1);
    let total = 0;
    tokens.forEach((token, t) => {
      total += this.postings.get(token)?.size ?? 0;
      offsets[t + 1] = total;
    });
    const docs = new Int32Array(total);
    const tfs = new Int32Array(total);
    tokens.forEach((token, t) => {
      const entries = [...(this.postings.get(token) ?? [])].sort((a, b) => a[0] - b[0]);
      entries.forEach(([id, tf], i) => {
        docs[(offsets[t] ?? 0) + i] = id;
        tfs[(offsets[t] ?? 0) + i] = tf;
      });
    });
    const ids = [...this.docTokens.keys()].sort((a, b) => a - b);
    return {
      tokens,
      offsets,
      docs,
      tfs,
      docIds: Int32Array.from(ids),
      lengths: Int32Array.from(ids, (id) => this.docTokens.get(id)?.length ?? 0),
    };
  }

  /** Before a change: the maps built from the packed arrays (a document's tokens in token order). */
  private unpacked(): void {
    const packed = this.packed;
    if (!packed) return;
    this.packed = undefined;
    for (const [token, docs, tfs] of packed.postings()) {
      const map = new Map<number, number>();
      docs.forEach((id, i) => {
        const tf = tfs[i] ?? 0;
        map.set(id, tf);
        let tokens = this.docTokens.get(id);
        if (!tokens) {
          tokens = [];
          this.docTokens.set(id, tokens);
        }
        for (let k = 0; k < tf; k++) tokens.push(token);
      });
      this.postings.set(token, map);
    }
    // Documents of no token (an empty document) are indexed too.
    for (const id of packed.packed.docIds) if (!this.docTokens.has(id)) this.docTokens.set(id, []);
  }

  /** A token's postings, from the maps or the packed arrays; undefined when no document holds it. */
  private postingList(token: string): PostingList | undefined {
    const packed = this.packed;
    if (packed) {
      const t = packed.token(token);
      if (t < 0) return undefined;
      return { size: packed.documentFrequency(t), ids: () => packed.docsOf(t), tf: (id) => packed.frequency(t, id) };
    }
    const docs = this.postings.get(token);
    return docs && { size: docs.size, ids: () => docs.keys(), tf: (id) => docs.get(id) ?? 0 };
  }

  private lengthOf(id: number): number {
    return this.packed ? this.packed.lengthOf(id) : (this.docTokens.get(id)?.length ?? 0);
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
    this.unpacked();
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
    this.unpacked();
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
      documents: this.size,
      tokens: this.totalLength,
      documentFrequency: new Map(tokens.map((t) => [t, this.postingList(t)?.size ?? 0])),
    };
  }

  /** The documents holding `token`. */
  withToken(token: string): Iterable<number> {
    return this.postingList(token)?.ids() ?? [];
  }

  /**
   * The `limit` best documents for `queryTerms` (fts-text's ftsQueryTerms) among those `accept`s,
   * by score, then the newer (higher) id first, as the FTS5 query orders them.
   */
  search(queryTerms: readonly string[], limit: number, accept: (id: number) => boolean): Bm25Hit[] {
    const n = this.size;
    if (n === 0 || limit <= 0) return [];
    const avgLength = this.totalLength / n;
    const scores = new Map<number, number>();
    for (const term of queryTerms) {
      const tokens = indexTokens(term);
      const lists = tokens.map((t) => this.postingList(t));
      if (tokens.length === 0 || lists.some((l) => l === undefined)) continue;
      const postings = lists as PostingList[];
      // Per token, once per query term: its postings and idf.
      const idfs = postings.map((docs) => bm25Idf(docs.size, n));
      const [first, ...rest] = postings;
      for (const id of first?.ids() ?? []) {
        if (!rest.every((docs) => docs.tf(id) > 0) || !accept(id)) continue;
        const length = this.lengthOf(id);
        let score = 0;
        for (let i = 0; i < postings.length; i++) score += bm25TokenScore(idfs[i] ?? 0, postings[i]?.tf(id) ?? 0, length, avgLength);
        scores.set(id, (scores.get(id) ?? 0) + score);
      }
    }
    return [...scores]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || b.id - a.id)
      .slice(0, limit);
  }
}
