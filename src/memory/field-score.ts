/**
 * Text evidence of a memory with its network as context (docs/design.md §5): BM25F (Robertson,
 * Zaragoza & Taylor, 2004) over fields. A memory's own text is the main field; the memories linked
 * to it as the conversation's previous and next segment (上文/下文), the entities it is linked to
 * (关于/相关), its speaker and its time are further fields at lower weights. Per query term t and
 * memory d:
 *
 *   tf̃(t, d) = tf(t, text d) / B(d) + w_n · Σ_{n ∈ neighbours(d)} tf(t, text n) / B(n)
 *             + w_e · Σ_{e ∈ entities(d)} [t ∈ name e] + w_s · [t ∈ speaker d] + w_t · [t ∈ time d]
 *   B(d)      = 1 − b + b · |d| / avg|d|        (|d|: the memory's full-text document length)
 *   score(d)  = Σ_t idf(t) · tf̃ · (k1 + 1) / (k1 + tf̃)
 *
 * with k1 = 1.2, b = 0.75 and idf = ln(1 + (N − df + 0.5) / (df + 0.5)) over the agent's own
 * full-text documents (src/search/bm25-index.ts). Fields are summed before saturation, so a term in
 * the memory and in its neighbour counts more than once, but never as two independent hits. A
 * segment whose answer sits in the turn after the question's words ("I went to a support group" →
 * "It was so powerful, I felt accepted") gets the neighbour's words at a lower weight: it ranks,
 * below the turn that says them.
 *
 * Only what the search reached is read (the caller passes the reached neighbours and entities), so
 * the context of a memory is what its links lead to, and recall stays a read of the network.
 */
import { BM25_B, BM25_K1, bm25Idf } from "../search/bm25-index";
import type { DocumentFields } from "../search/fts-text";

export interface FieldWeights {
  /** Consecutive segments' text (上文/下文). */
  neighbours: number;
  /** Names of the entities the memory is linked to. */
  entities: number;
  /** Who said it. */
  speaker: number;
  /** When it was said (month, day, year of the messages' time). */
  time: number;
}

/** The agent's full-text statistics (src/search/bm25-index.ts CorpusStatistics). */
export interface TermStatistics {
  documents: number;
  /** Terms of all documents together. */
  tokens: number;
  documentFrequency: ReadonlyMap<string, number>;
}

/** A memory's context among the reached nodes: the fields of its linked segments and entities. */
export interface FieldContext {
  neighbours: readonly DocumentFields[];
  entities: readonly DocumentFields[];
}

export interface FieldScore {
  score: number;
  /**
   * Distinct query terms found in the memory's text or its context (neighbours, entities): what
   * makes it a candidate. Speaker and time alone never do (every memory has both).
   */
  matched: number;
}

export class FieldScorer {
  private readonly idf: number[];
  private readonly averageLength: number;

  constructor(
    private readonly terms: readonly string[],
    stats: TermStatistics,
    private readonly weights: FieldWeights,
  ) {
    this.idf = terms.map((t) => bm25Idf(stats.documentFrequency.get(t) ?? 0, Math.max(stats.documents, 1)));
    this.averageLength = stats.documents > 0 && stats.tokens > 0 ? stats.tokens / stats.documents : 1;
  }

  /** B(d): length normalisation of a document of `length` terms. */
  private norm(length: number): number {
    return 1 - BM25_B + (BM25_B * length) / this.averageLength;
  }

  score(doc: DocumentFields, context: FieldContext): FieldScore {
    const w = this.weights;
    const ownNorm = this.norm(doc.length);
    const neighbours = w.neighbours > 0 ? context.neighbours : [];
    const entities = w.entities > 0 ? context.entities : [];
    let score = 0;
    let matched = 0;
    this.terms.forEach((term, i) => {
      let tf = (doc.text.get(term) ?? 0) / ownNorm;
      for (const n of neighbours) {
        const t = n.text.get(term);
        if (t) tf += (w.neighbours * t) / this.norm(n.length);
      }
      for (const e of entities) if (e.text.has(term)) tf += w.entities;
      if (tf > 0) matched += 1;
      if (w.speaker > 0 && doc.speaker.has(term)) tf += w.speaker;
      if (w.time > 0 && doc.time.has(term)) tf += w.time;
      if (tf > 0) score += ((this.idf[i] ?? 0) * tf * (BM25_K1 + 1)) / (BM25_K1 + tf);
    });
    return { score, matched };
  }
}
