/**
 * The vector index of one agent (docs/design.md §8, §9): Vectorize in production (one namespace per
 * agent), a local exact index in the agent's Durable Object for local runs and tests. Selected by
 * the VECTOR_PROVIDER var. Vectors are L2-normalised by the embedder, so cosine = dot product.
 */
import type { NodeKind } from "../vocabulary/node-kinds";

export interface VectorRecord {
  nodeId: number;
  kind: NodeKind;
  vector: Float32Array;
}

export interface VectorHit {
  nodeId: number;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

export interface VectorQuery {
  vector: Float32Array;
  topK: number;
  /** Only nodes of these kinds (all kinds when absent). */
  kinds?: readonly NodeKind[];
}

export interface VectorIndexStats {
  /** Vectors the index holds for this agent, when known (Vectorize counts per index, not per namespace). */
  vectors: number | null;
  /** Bytes the index holds for this agent (vectors and their keys), when known. */
  bytes: number | null;
}

export interface VectorIndex {
  readonly name: string;
  readonly dimensions: number;
  /** Adds or replaces vectors (a compressed node's vector is replaced). */
  upsert(records: readonly VectorRecord[]): Promise<void>;
  remove(nodeIds: readonly number[]): Promise<void>;
  /** Best matches first. May include nodes deleted since: callers look hits up in D1. */
  query(query: VectorQuery): Promise<VectorHit[]>;
  stats(): Promise<VectorIndexStats>;
}
