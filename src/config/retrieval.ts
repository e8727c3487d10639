/**
 * Retrieval settings that belong to a provider, not to an agent (docs/design.md, "recall(keywords, relations, depth)").
 *
 * The weight of vector similarity when it is fused with BM25 (src/memory/fusion.ts, ranking.ts),
 * by embedder name. It says how good the embedder's similarity is beside BM25 over the same
 * memories:
 * - `local-hash` (the built-in hashed n-gram embedder, src/models/local/local-embedder.ts) sees the
 *   same stemmed words BM25 sees, without their rarity, plus word pairs. Measured on the tuning
 *   conversations (LoCoMo conv-26, conv-30; docs/BENCHMARKS.md), every weight above 0 lowered
 *   R@10 of the fused entry points (0.618 at 0 → 0.608 at 0.02 → 0.607 at 0.1 → 0.598 at 0.3) and
 *   of recall (0.730 → 0.719 at 0.1 → 0.704 at 0.3): it adds nothing BM25 lacks, so it weighs 0.
 *   The vector search itself stays (search mode "vector").
 * - `workers-ai:@cf/baai/bge-m3`, a dense multilingual model, finds paraphrases BM25 cannot; hybrid
 *   retrieval studies set dense and lexical scores about level (Bruch, Gai & Ingber 2023; BEIR
 *   hybrid baselines), so it starts at an even weight. Not measured here (no Workers AI offline).
 * - `bench-http`, the quality benchmark's semantic arm (the mean of Chinese word2vec vectors,
 *   src/models/local/http-embedder.ts; never production's): chosen on the first half of MADial's
 *   items with the in-process probe (`npm run bench:offline -- --madial DIR --semantic
 *   --vector-weights …`), `default` hit@5 0.395 at 0, 0.421 at 0.1–0.4, 0.474 at 0.5 and 0.6,
 *   0.447 at 0.7, 0.421 at 0.8 (BM25 0.368); the tie goes to the smaller weight. The second half
 *   is only checked (docs/BENCHMARKS.md).
 * - Any other embedder: between the two until measured.
 */
export const VECTOR_FUSION_WEIGHTS: Readonly<Record<string, number>> = {
  "local-hash": 0,
  "workers-ai:@cf/baai/bge-m3": 0.5,
  "bench-http": 0.5,
};

export const DEFAULT_VECTOR_FUSION_WEIGHT = 0.3;

/** The fusion weight of an embedder's similarity, in [0, 1]. */
export function vectorFusionWeight(embedderName: string): number {
  return VECTOR_FUSION_WEIGHTS[embedderName] ?? DEFAULT_VECTOR_FUSION_WEIGHT;
}
