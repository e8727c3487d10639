/**
 * The vector index of one agent (docs/design.md, "Models", "Layers"): Vectorize in production (one namespace per
 * agent), a local exact index in the agent's Durable Object for local runs and tests. Selected by
 * the VECTOR_PROVIDER var. Vectors are L2-normalised by the embedder, so cosine = dot product.
 */
import type { NodeKind } from "../vocabulary/node-kinds";

export interface VectorRecord {
  nodeId: number;
  kind: NodeKind;
  /** What an index filters on besides the kind (docs/design.md, "Scoping"): the node's session and speaker. */
  session?: string | null | undefined;
  speaker?: string | null | undefined;
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
  /** Only nodes of these sessions, said by these speakers (any when absent): the filters an index applies itself. */
  sessions?: readonly string[];
  speakers?: readonly string[];
}

export interface VectorIndexStats {
  /** Vectors the index holds for this agent, when known (Vectorize counts per index, not per namespace). */
  vectors: number | null;
  /** Bytes the index holds for this agent (vectors and their keys), when known. */
  bytes: number | null;
  /**
   * The shared index the agent's vectors live in (Vectorize): its binding, its vectors (all
   * agents') and capacity, and whether it is full (it refuses new vectors).
   */
  shared?: { index: string; vectors: number | null; capacity: number; full: boolean };
}

/**
 * A shared vector index has reached its capacity: it refuses new vectors. The agent's writes fail
 * with this (its `index` tasks say so), its stats and the deep health check show it, and the
 * registry sends new agents to the next index (docs/deploy.md, "Limits").
 */
export class VectorIndexFullError extends Error {
  override readonly name = "VectorIndexFullError";
  constructor(
    readonly index: string,
    readonly vectors: number,
    readonly capacity: number,
    options?: { cause?: unknown },
  ) {
    super(`vector index ${index} is full: it holds ${vectors} of ${capacity} vectors and refuses more`, options);
  }
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
