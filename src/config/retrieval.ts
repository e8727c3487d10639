/**
 * Retrieval settings that belong to a provider, not to an agent (docs/design.md §5).
 *
 * The weight of vector similarity when it is fused with BM25 (src/memory/fusion.ts, ranking.ts),
 * by embedder name. It says how good the embedder's similarity is beside BM25 over the same
 * memories:
 * - `local-hash` (the built-in hashed n-gram embedder, src/models/local/local-embedder.ts) sees the
 *   same stemmed words BM25 sees, without their rarity, plus word pairs: it adds little that BM25
 *   lacks and dilutes it at a high weight (measured: docs/BENCHMARKS.md), so it only breaks near-ties.
 * - `workers-ai:@cf/baai/bge-m3`, a dense multilingual model, finds paraphrases BM25 cannot; hybrid
 *   retrieval studies set dense and lexical scores about level (Bruch, Gai & Ingber 2023; BEIR
 *   hybrid baselines), so it starts at an even weight. Not measured here (no Workers AI offline).
 * - Any other embedder: between the two until measured.
 */
export const VECTOR_FUSION_WEIGHTS: Readonly<Record<string, number>> = {
  "local-hash": 0.1,
  "workers-ai:@cf/baai/bge-m3": 0.5,
};

export const DEFAULT_VECTOR_FUSION_WEIGHT = 0.3;

/** The fusion weight of an embedder's similarity, in [0, 1]. */
export function vectorFusionWeight(embedderName: string): number {
  return VECTOR_FUSION_WEIGHTS[embedderName] ?? DEFAULT_VECTOR_FUSION_WEIGHT;
}
