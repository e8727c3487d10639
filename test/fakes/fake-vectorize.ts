/**
 * A fake Vectorize (V2) index that enforces what the Vectorize documentation says, scaled down:
 *   - capacity: an index holds at most `capacity` vectors (5,000,000 in the limits table, a few
 *     dozen here); an upsert that would pass it is refused, and mutations accepted while there was
 *     room are applied only up to it, the rest silently dropped (how an index "fills silently");
 *   - at most `namespaces` namespaces (50,000 on Workers Paid);
 *   - writes are asynchronous: upsert and deleteByIds answer a mutation id at once and change
 *     nothing a query sees until process() applies them, in order; describe() reports the applied
 *     vector count and the last processed mutation (id and time);
 *   - batches: 1,000 vectors per upsert, 100 ids per deleteByIds; ids and namespaces of at most 64
 *     bytes; topK at most 100 without values or metadata (20 with them); the vectors' dimensions.
 * Errors are thrown as the binding throws them: plain Errors with a "VECTOR_…_ERROR (code = …)"
 * message. The service's exact wording for a full index is not documented; the code under test
 * never reads messages (it asks describe() why a write was refused).
 */
import type { VectorizeBinding } from "../../src/vectors/vectorize-index";

interface Stored {
  values: number[];
  namespace: string;
  kind: unknown;
}

interface Mutation {
  id: string;
  at: number;
  apply: () => void;
}

export interface FakeVectorizeOptions {
  capacity: number;
  dimensions: number;
  namespaces?: number;
  clock: { now(): number };
}

const bytes = (s: string): number => new TextEncoder().encode(s).byteLength;

export class FakeVectorize implements VectorizeBinding {
  private readonly applied = new Map<string, Stored>();
  private readonly pending: Mutation[] = [];
  private processedUpTo: { mutation: string; at: number } | null = null;
  private mutations = 0;
  /** Vectors dropped because the index was full when their mutation was applied. */
  dropped = 0;
  calls = { upsert: 0, deleteByIds: 0, query: 0, describe: 0 };

  constructor(private readonly options: FakeVectorizeOptions) {}

  get vectorCount(): number {
    return this.applied.size;
  }

  /** Whether `id` is queryable (its upsert was processed). */
  holds(id: string): boolean {
    return this.applied.has(id);
  }

  async upsert(vectors: VectorizeVector[]): Promise<VectorizeAsyncMutation> {
    this.calls.upsert += 1;
    if (vectors.length > 1000) throw new Error("VECTOR_UPSERT_ERROR (code = 40006): too many vectors in a batch; max is 1000");
    for (const v of vectors) {
      if (bytes(v.id) > 64) throw new Error(`VECTOR_UPSERT_ERROR (code = 40008): id too long: ${v.id}`);
      if (bytes(v.namespace ?? "") > 64) throw new Error("VECTOR_UPSERT_ERROR (code = 40009): namespace too long");
      if (v.values.length !== this.options.dimensions) {
        throw new Error(
          `VECTOR_UPSERT_ERROR (code = 40012): vector has ${v.values.length} dimensions, the index ${this.options.dimensions}`,
        );
      }
    }
    const fresh = new Set(vectors.map((v) => v.id).filter((id) => !this.applied.has(id)));
    if (this.applied.size + fresh.size > this.options.capacity) {
      throw new Error(`VECTOR_UPSERT_ERROR (code = 40025): the index is at its vector limit (${this.options.capacity})`);
    }
    const namespaces = new Set([...this.applied.values()].map((s) => s.namespace));
    for (const v of vectors) namespaces.add(v.namespace ?? "");
    if (namespaces.size > (this.options.namespaces ?? 50_000)) {
      throw new Error("VECTOR_UPSERT_ERROR (code = 40026): the index is at its namespace limit");
    }
    const copies = vectors.map((v) => ({
      id: v.id,
      stored: { values: [...v.values], namespace: v.namespace ?? "", kind: v.metadata?.kind },
    }));
    return this.enqueue(() => {
      for (const { id, stored } of copies) {
        if (!this.applied.has(id) && this.applied.size >= this.options.capacity) {
          this.dropped += 1;
          continue;
        }
        this.applied.set(id, stored);
      }
    });
  }

  async deleteByIds(ids: string[]): Promise<VectorizeAsyncMutation> {
    this.calls.deleteByIds += 1;
    if (ids.length > 100) throw new Error("VECTOR_DELETE_ERROR (code = 40007): too many ids in payload; max id count is 100");
    const copy = [...ids];
    return this.enqueue(() => {
      for (const id of copy) this.applied.delete(id);
    });
  }

  async query(vector: Float32Array, options: VectorizeQueryOptions): Promise<VectorizeMatches> {
    this.calls.query += 1;
    const topK = options.topK ?? 5;
    const heavy = options.returnValues === true || (options.returnMetadata !== undefined && options.returnMetadata !== "none");
    if (topK > (heavy ? 20 : 100)) throw new Error(`VECTOR_QUERY_ERROR (code = 40003): topK ${topK} is too large`);
    if (vector.length !== this.options.dimensions)
      throw new Error("VECTOR_QUERY_ERROR (code = 40012): query vector has the wrong dimensions");
    const kinds = kindFilter(options.filter);
    const matches = [...this.applied.entries()]
      .filter(([, s]) => s.namespace === (options.namespace ?? "") && (kinds === undefined || kinds.includes(s.kind)))
      .map(([id, s]) => ({ id, score: s.values.reduce((sum, x, i) => sum + x * (vector[i] ?? 0), 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
    return { matches, count: matches.length };
  }

  async describe(): Promise<unknown> {
    this.calls.describe += 1;
    return {
      vectorCount: this.applied.size,
      dimensions: this.options.dimensions,
      processedUpToMutation: this.processedUpTo?.mutation ?? null,
      processedUpToDatetime: this.processedUpTo ? new Date(this.processedUpTo.at).toISOString() : null,
    };
  }

  /** Applies the oldest `count` pending mutations (all by default), in order. */
  process(count = Infinity): number {
    let done = 0;
    while (done < count) {
      const next = this.pending.shift();
      if (!next) break;
      next.apply();
      this.processedUpTo = { mutation: next.id, at: next.at };
      done += 1;
    }
    return done;
  }

  get pendingMutations(): number {
    return this.pending.length;
  }

  private enqueue(apply: () => void): VectorizeAsyncMutation {
    this.mutations += 1;
    const id = `00000000-0000-4000-8000-${String(this.mutations).padStart(12, "0")}`;
    this.pending.push({ id, at: this.options.clock.now(), apply });
    return { mutationId: id };
  }
}

/** The kinds a `{ kind: { $in: [...] } }` filter accepts; undefined: no filter. */
function kindFilter(filter: unknown): unknown[] | undefined {
  if (typeof filter !== "object" || filter === null) return undefined;
  const kind: unknown = Reflect.get(filter, "kind");
  if (typeof kind !== "object" || kind === null) return undefined;
  const list: unknown = Reflect.get(kind, "$in");
  return Array.isArray(list) ? list : undefined;
}
