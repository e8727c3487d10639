/**
 * Text evidence of a memory with its network as context (docs/design.md, "recall(keywords, relations, depth)"): BM25F (Robertson,
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
 * A question and its answer are one exchange (an adjacency pair): a segment that asks ("That plate
 * is awesome! Did you make it?") asserts nothing, its answer ("Yeah, I made it in pottery class")
 * says what was asked. So when a memory's 上文 is another speaker's question, the question's words
 * count as the answer's own (weight 1 instead of w_n), and a question's own text counts at
 * QUESTION_TEXT_WEIGHT: the exchange ranks by its answer, the question just below it.
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

/**
 * Weight of a question's own text (a segment that ends with a question mark): half a statement's.
 * Chosen on the tuning conversations among 1, 0.5, 0.4 and 0.2 (0.5–0.2 within 0.005 of R@1 each
 * other, 1 clearly below), docs/BENCHMARKS.md.
 */
export const QUESTION_TEXT_WEIGHT = 0.5;

/** A memory's context among the reached nodes: the fields of its linked segments and entities. */
export interface FieldContext {
  /** 上文/下文 other than `asked`. */
  neighbours: readonly DocumentFields[];
  entities: readonly DocumentFields[];
  /** The question this memory answers: its 上文 when that is another speaker's question (with neighbours only). */
  asked?: readonly DocumentFields[];
  /** The memory itself is a question: its own text counts at QUESTION_TEXT_WEIGHT. */
  asks?: boolean;
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
    // The question before an answer is part of the answer's exchange, lent like a neighbour at full weight.
    const asked = w.neighbours > 0 ? (context.asked ?? []) : [];
    const own = context.asks ? QUESTION_TEXT_WEIGHT : 1;
    const entities = w.entities > 0 ? context.entities : [];
    let score = 0;
    let matched = 0;
    this.terms.forEach((term, i) => {
      let tf = (own * (doc.text.get(term) ?? 0)) / ownNorm;
      for (const q of asked) {
        const t = q.text.get(term);
        if (t) tf += t / this.norm(q.length);
      }
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
