/**
 * The production vector index (VECTOR_PROVIDER=vectorize, docs/design.md, "Execution model", "Scale and limits"): agents are spread
 * over several Vectorize indexes (src/storage/agent-registry.ts assigns one per agent), one
 * namespace per agent. Vector ids are `${idPrefix}${nodeId}`, unique across the index (deleteByIds
 * takes no namespace), and carry only `{ kind }` as metadata, which a metadata index on `kind`
 * turns into a query filter.
 *
 * Vectorize applies writes asynchronously, so every upsert also lands in the agent's RecentVectors
 * buffer until the index reports the write's mutation processed, and every query merges the
 * buffer's exact hits with Vectorize's. A write the index refuses because it is full surfaces as a
 * VectorIndexFullError (and `onFull`), never as a silently missing vector.
 */
import { z } from "zod";
import { STORAGE_FILL_RATIO } from "../config/limits";
import {
  VectorIndexFullError,
  type VectorHit,
  type VectorIndex,
  type VectorIndexStats,
  type VectorQuery,
  type VectorRecord,
} from "./types";
import { TopK } from "./top-k";
import type { RecentVectors } from "./recent-vectors";
import { NODE_KINDS, type NodeKind } from "../vocabulary/node-kinds";
import { indexedPrefix } from "./vector-filter";
import { checkNodeId, checkTopK, checkVector, parseKind } from "./vector-codec";

/**
 * Vectorize's published limits per call and per index. The deleteByIds cap is not among them: the
 * service rejects more than 100 ids per call ("too many ids in payload; max id count is 100",
 * error 40007).
 */
export const VECTORIZE_MAX_UPSERT_BATCH = 1000;
export const VECTORIZE_MAX_DELETE_BATCH = 100;
/** topK without values and metadata; 20 with either (we ask for neither). */
export const VECTORIZE_MAX_TOP_K = 100;
export const VECTORIZE_MAX_ID_BYTES = 64;
export const VECTORIZE_MAX_NAMESPACE_BYTES = 64;
export const VECTORIZE_MAX_DIMENSIONS = 1536;

/** How often a query may ask the index how far it has processed writes (one describe() call). */
export const DESCRIBE_INTERVAL_MS = 5_000;

/** The part of a Vectorize binding this adapter calls (tests pass a fake; answers are parsed). */
export interface VectorizeBinding {
  upsert(vectors: VectorizeVector[]): Promise<unknown>;
  deleteByIds(ids: string[]): Promise<unknown>;
  query(vector: Float32Array, options: VectorizeQueryOptions): Promise<unknown>;
  describe(): Promise<unknown>;
}

export interface VectorizeIndexOptions {
  binding: VectorizeBinding;
  /** The index's binding name (what stats, errors and the registry call it). */
  index: string;
  /** Vectors the index holds at most (VECTORIZE_INDEX_CAPACITY). */
  capacity: number;
  /** Told once when the index refuses a write because it is full (the registry closes it to new agents). */
  onFull?: (error: VectorIndexFullError) => Promise<void>;
  namespace: string;
  /** Must not end with a digit, so that `${idPrefix}${nodeId}` parses back to exactly one node id. */
  idPrefix: string;
  dimensions: number;
  recent: RecentVectors;
  now?: () => number;
}

const QueryAnswer = z.object({ matches: z.array(z.object({ id: z.string(), score: z.number() })) });
/** An upsert's answer: a mutation id (Vectorize V2); older indexes answered ids and a count instead. */
const UpsertAnswer = z.object({ mutationId: z.string().min(1) });
/** ISO 8601 text (the REST API) or a number (the binding's typings): ms, or seconds below 1e11. */
const Instant = z.union([
  z.string().transform((s) => {
    const ms = Date.parse(s);
    return Number.isFinite(ms) ? ms : null;
  }),
  z.number().transform((n) => (Math.abs(n) < 1e11 ? n * 1000 : n)),
]);
/** describe() of a V2 index (parsed: the binding's typings disagree with the service on some types). */
const IndexInfo = z.object({
  vectorCount: z.number().int().nonnegative(),
  processedUpToMutation: z.union([z.string(), z.number()]).nullish(),
  processedUpToDatetime: Instant.nullish(),
});
type IndexInfo = z.infer<typeof IndexInfo>;

const UTF8 = new TextEncoder();
/** Vectorize's id and namespace limits are in bytes, not characters. */
const byteLength = (s: string): number => UTF8.encode(s).byteLength;

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * A vector's metadata: its kind, session and speaker, the three properties with metadata indexes
 * (docs/deploy.md, "Vectorize metadata indexes"). A string is kept to the 64 bytes the index
 * filters on; a node without a session or a speaker has no such property, so no filter on it matches.
 */
export function vectorMetadata(r: Pick<VectorRecord, "kind" | "session" | "speaker">): Record<string, string> {
  return {
    kind: r.kind,
    ...(r.session ? { session: indexedPrefix(r.session) } : {}),
    ...(r.speaker ? { speaker: indexedPrefix(r.speaker) } : {}),
  };
}

/**
 * The query's metadata filter: kinds (none when every kind is asked, so such queries work even
 * without the metadata index), sessions and speakers (prefixes as stored: the caller checks the
 * whole speaker when it looks the hit up).
 */
export function metadataFilter(query: VectorQuery, kinds: readonly NodeKind[] | undefined): VectorizeQueryOptions["filter"] {
  const filter: NonNullable<VectorizeQueryOptions["filter"]> = {};
  if (kinds !== undefined && kinds.length < NODE_KINDS.length) filter.kind = { $in: [...kinds] };
  if (query.sessions) filter.session = { $in: [...new Set(query.sessions.map(indexedPrefix))] };
  if (query.speakers) filter.speaker = { $in: [...new Set(query.speakers.map(indexedPrefix))] };
  return Object.keys(filter).length > 0 ? filter : undefined;
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
  private readonly index: string;
  private readonly capacity: number;
  private readonly onFull: ((error: VectorIndexFullError) => Promise<void>) | undefined;
  /** When the index was last asked how far it has processed (describe()). */
  private lastDescribed = -Infinity;
  private fullReported = false;

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
    if (!Number.isSafeInteger(options.capacity) || options.capacity < 1) throw new RangeError(`invalid index capacity ${options.capacity}`);
    this.index = options.index;
    this.capacity = options.capacity;
    this.onFull = options.onFull;
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
    // The buffer first: from now until Vectorize reports these writes processed, queries find them there.
    this.recent.add(unique, this.now());
    for (const batch of batches(unique, VECTORIZE_MAX_UPSERT_BATCH)) {
      let answer: unknown;
      try {
        answer = await this.binding.upsert(
          batch.map((r) => ({ id: this.vectorId(r.nodeId), values: r.vector, namespace: this.namespace, metadata: vectorMetadata(r) })),
        );
      } catch (err) {
        throw await this.refusal(err, batch.length);
      }
      const mutation = UpsertAnswer.safeParse(answer);
      this.recent.accepted(
        batch.map((r) => r.nodeId),
        mutation.success ? mutation.data.mutationId : null,
        this.now(),
      );
    }
  }

  /**
   * Why a write was refused: when the index is (nearly) full — its own count and the refused
   * vectors pass STORAGE_FILL_RATIO of its capacity — a VectorIndexFullError (reported once through
   * onFull); otherwise the binding's own error.
   */
  private async refusal(err: unknown, refused: number): Promise<unknown> {
    let info: IndexInfo | undefined;
    try {
      info = await this.describe();
    } catch {
      return err;
    }
    if (info.vectorCount + refused <= this.capacity * STORAGE_FILL_RATIO) return err;
    const full = new VectorIndexFullError(this.index, info.vectorCount, this.capacity, { cause: err });
    if (!this.fullReported && this.onFull) {
      this.fullReported = true;
      await this.onFull(full).catch((e: unknown) => console.error(`recording that ${this.index} is full failed`, e));
    }
    return full;
  }

  private async describe(): Promise<IndexInfo> {
    const info = IndexInfo.safeParse(await this.binding.describe());
    if (!info.success) throw new TypeError(`malformed Vectorize describe answer: ${info.error.message}`);
    this.lastDescribed = this.now();
    return info.data;
  }

  /**
   * Asks the index how far it has processed writes, when the buffer waits for that and it was not
   * asked in the last DESCRIBE_INTERVAL_MS, and releases what it reports processed. A failed ask
   * keeps the buffer as it is.
   */
  private async releaseProcessed(): Promise<void> {
    const now = this.now();
    if (now - this.lastDescribed < DESCRIBE_INTERVAL_MS || !this.recent.awaitingReport()) return;
    try {
      const info = await this.describe();
      const mutation = info.processedUpToMutation;
      this.recent.release(
        { mutation: mutation === null || mutation === undefined ? null : String(mutation), at: info.processedUpToDatetime ?? null },
        now,
      );
    } catch (err) {
      console.warn(`asking ${this.index} how far it has processed writes failed`, err);
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
    // Asked alongside the query; what it releases leaves the buffer for the next queries.
    const releasing = this.releaseProcessed();
    // The whole buffer (it holds one agent's last minutes of writes), so every buffered node is known.
    const buffered = this.recent.query({ ...query, topK: Math.max(query.topK, this.recent.count()), ...(kinds ? { kinds } : {}) });
    const bufferedIds = new Set(this.recent.ids());
    const options: VectorizeQueryOptions = {
      topK: Math.min(query.topK, VECTORIZE_MAX_TOP_K),
      namespace: this.namespace,
      returnValues: false,
      returnMetadata: "none",
    };
    const filter = metadataFilter(query, kinds);
    if (filter) options.filter = filter;
    const [raw] = await Promise.all([this.binding.query(query.vector, options), releasing]);
    const answer = QueryAnswer.safeParse(raw);
    if (!answer.success) throw new TypeError(`malformed Vectorize query answer: ${answer.error.message}`);

    const best = new Map<number, number>(buffered.map((hit) => [hit.nodeId, hit.score]));
    for (const match of answer.data.matches) {
      const nodeId = parseVectorId(match.id, this.idPrefix);
      if (nodeId !== null && !bufferedIds.has(nodeId)) best.set(nodeId, Math.max(best.get(nodeId) ?? -Infinity, match.score));
    }
    const top = new TopK(query.topK);
    for (const [nodeId, score] of best) top.offer(nodeId, score);
    return top.results();
  }

  /**
   * Vectorize reports counts per index, not per namespace: the agent's own are unknown here (D1
   * knows the node count); the shared index's count, capacity and fullness are reported.
   */
  async stats(): Promise<VectorIndexStats> {
    let vectors: number | null = null;
    try {
      vectors = (await this.describe()).vectorCount;
    } catch (err) {
      console.warn(`describing ${this.index} failed`, err);
    }
    const full = this.fullReported || (vectors !== null && vectors >= this.capacity);
    return { vectors: null, bytes: null, shared: { index: this.index, vectors, capacity: this.capacity, full } };
  }

  private vectorId(nodeId: number): string {
    return `${this.idPrefix}${nodeId}`;
  }
}
