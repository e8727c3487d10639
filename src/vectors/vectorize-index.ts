/**
 * The production vector index (VECTOR_PROVIDER=vectorize, docs/design.md §7, §10): one Vectorize index
 * shared by all agents, one namespace per agent. Vector ids are `${idPrefix}${nodeId}`, unique
 * across the index (deleteByIds takes no namespace), and carry only `{ kind }` as metadata, which a
 * metadata index on `kind` turns into a query filter.
 *
 * Vectorize applies writes asynchronously, so every upsert also lands in the agent's RecentVectors
 * buffer and every query merges the buffer's exact hits with Vectorize's.
 */
import { z } from "zod";
import type { VectorHit, VectorIndex, VectorIndexStats, VectorQuery, VectorRecord } from "./types";
import { TopK } from "./top-k";
import type { RecentVectors } from "./recent-vectors";
import { NODE_KINDS } from "../vocabulary/node-kinds";
import { checkNodeId, checkTopK, checkVector, parseKind } from "./vector-codec";

/**
 * Vectorize limits (developers.cloudflare.com/vectorize/platform/limits/ and reference/client-api/).
 * The deleteByIds cap is not in the limits table: the service rejects more than 100 ids per call
 * ("too many ids in payload; max id count is 100", error 40007).
 */
export const VECTORIZE_MAX_UPSERT_BATCH = 1000;
export const VECTORIZE_MAX_DELETE_BATCH = 100;
/** topK without values and metadata; 20 with either (we ask for neither). */
export const VECTORIZE_MAX_TOP_K = 100;
export const VECTORIZE_MAX_ID_BYTES = 64;
export const VECTORIZE_MAX_NAMESPACE_BYTES = 64;
export const VECTORIZE_MAX_DIMENSIONS = 1536;

/** The part of a Vectorize binding this adapter calls (tests pass a fake; answers are parsed). */
export interface VectorizeBinding {
  upsert(vectors: VectorizeVector[]): Promise<unknown>;
  deleteByIds(ids: string[]): Promise<unknown>;
  query(vector: Float32Array, options: VectorizeQueryOptions): Promise<unknown>;
}

export interface VectorizeIndexOptions {
  binding: VectorizeBinding;
  namespace: string;
  /** Must not end with a digit, so that `${idPrefix}${nodeId}` parses back to exactly one node id. */
  idPrefix: string;
  dimensions: number;
  recent: RecentVectors;
  now?: () => number;
}

const QueryAnswer = z.object({ matches: z.array(z.object({ id: z.string(), score: z.number() })) });

const UTF8 = new TextEncoder();
/** Vectorize's id and namespace limits are in bytes, not characters. */
const byteLength = (s: string): number => UTF8.encode(s).byteLength;

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The node id of a vector id from this prefix; null for another agent's id or any malformed id. */
export function parseVectorId(id: string, idPrefix: string): number | null {
  if (!id.startsWith(idPrefix)) return null;
  const digits = id.slice(idPrefix.length);
  if (!/^(0|[1-9][0-9]*)$/.test(digits)) return null;
  const nodeId = Number(digits);
  return Number.isSafeInteger(nodeId) ? nodeId : null;
}

export class VectorizeVectorIndex implements VectorIndex {
  readonly name = "vectorize";
  readonly dimensions: number;
  private readonly binding: VectorizeBinding;
  private readonly namespace: string;
  private readonly idPrefix: string;
  private readonly recent: RecentVectors;
  private readonly now: () => number;

  constructor(options: VectorizeIndexOptions) {
    const { namespace, idPrefix, dimensions } = options;
    if (namespace === "" || byteLength(namespace) > VECTORIZE_MAX_NAMESPACE_BYTES) {
      throw new RangeError(`Vectorize namespace must be 1-${VECTORIZE_MAX_NAMESPACE_BYTES} bytes: "${namespace}"`);
    }
    if (idPrefix === "" || /[0-9]$/.test(idPrefix)) throw new RangeError(`id prefix must end with a non-digit: "${idPrefix}"`);
    if (!Number.isSafeInteger(dimensions) || dimensions < 1 || dimensions > VECTORIZE_MAX_DIMENSIONS) {
      throw new RangeError(`Vectorize supports 1-${VECTORIZE_MAX_DIMENSIONS} dimensions, got ${dimensions}`);
    }
    if (options.recent.dimensions !== dimensions) throw new RangeError("the recent buffer has other dimensions than the index");
    this.binding = options.binding;
    this.namespace = namespace;
    this.idPrefix = idPrefix;
    this.dimensions = dimensions;
    this.recent = options.recent;
    this.now = options.now ?? (() => Date.now());
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    const latest = new Map<number, VectorRecord>();
    for (const r of records) {
      checkNodeId(r.nodeId);
      parseKind(r.kind);
      checkVector(r.vector, this.dimensions, `vector of node ${r.nodeId}`);
      if (byteLength(this.vectorId(r.nodeId)) > VECTORIZE_MAX_ID_BYTES) throw new RangeError(`vector id too long for node ${r.nodeId}`);
      latest.delete(r.nodeId); // the last record for a node wins, as in the local index
      latest.set(r.nodeId, r);
    }
    const unique = [...latest.values()];
    if (unique.length === 0) return;
    // The buffer first: from now until Vectorize has indexed them, queries find these vectors there.
    this.recent.add(unique, this.now());
    for (const batch of batches(unique, VECTORIZE_MAX_UPSERT_BATCH)) {
      await this.binding.upsert(
        batch.map((r) => ({ id: this.vectorId(r.nodeId), values: r.vector, namespace: this.namespace, metadata: { kind: r.kind } })),
      );
    }
  }

  async remove(nodeIds: readonly number[]): Promise<void> {
    for (const id of nodeIds) checkNodeId(id);
    if (nodeIds.length === 0) return;
    this.recent.remove(nodeIds);
    const unique = [...new Set(nodeIds)];
    for (const batch of batches(unique, VECTORIZE_MAX_DELETE_BATCH)) {
      await this.binding.deleteByIds(batch.map((id) => this.vectorId(id)));
    }
  }

  /**
   * Vectorize's hits (at most VECTORIZE_MAX_TOP_K of them) merged with the buffer's, re-ranked. A
   * node in the buffer is scored by its buffered vector only: that is its newest one, while
   * Vectorize may still hold the vector it replaced (a compressed node).
   */
  async query(query: VectorQuery): Promise<VectorHit[]> {
    checkTopK(query.topK);
    checkVector(query.vector, this.dimensions, "query vector");
    const kinds = query.kinds === undefined ? undefined : [...new Set(query.kinds.map(parseKind))];
    if (query.topK === 0 || kinds?.length === 0) return [];
    this.recent.prune(this.now());
    // The whole buffer (it holds one agent's last minutes of writes), so every buffered node is known.
    const buffered = this.recent.query({ vector: query.vector, topK: Math.max(query.topK, this.recent.count()), kinds });
    const options: VectorizeQueryOptions = {
      topK: Math.min(query.topK, VECTORIZE_MAX_TOP_K),
      namespace: this.namespace,
      returnValues: false,
      returnMetadata: "none",
    };
    // Every kind requested: no filter, so such queries work even without the metadata index.
    if (kinds !== undefined && kinds.length < NODE_KINDS.length) options.filter = { kind: { $in: kinds } };
    const answer = QueryAnswer.safeParse(await this.binding.query(query.vector, options));
    if (!answer.success) throw new TypeError(`malformed Vectorize query answer: ${answer.error.message}`);

    const best = new Map<number, number>(buffered.map((hit) => [hit.nodeId, hit.score]));
    const bufferedIds = new Set(this.recent.ids());
    for (const match of answer.data.matches) {
      const nodeId = parseVectorId(match.id, this.idPrefix);
      if (nodeId !== null && !bufferedIds.has(nodeId)) best.set(nodeId, Math.max(best.get(nodeId) ?? -Infinity, match.score));
    }
    const top = new TopK(query.topK);
    for (const [nodeId, score] of best) top.offer(nodeId, score);
    return top.results();
  }

  /** Vectorize reports counts per index, not per namespace: unknown here (D1 knows the node count). */
  async stats(): Promise<VectorIndexStats> {
    return { vectors: null, bytes: null };
  }

  private vectorId(nodeId: number): string {
    return `${this.idPrefix}${nodeId}`;
  }
}
