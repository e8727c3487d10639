/**
 * The local vector index (VECTOR_PROVIDER=local, docs/design.md, "Models"): exact cosine search by brute force over
 * the agent's vectors, persisted in the `vectors` table of the agent's own Durable Object SQLite so
 * the index survives eviction. The in-memory matrix is a cache of that table: built on the
 * first query after a wake, then kept in step by every write, never reloaded.
 */
import type { NodeKind } from "../vocabulary/node-kinds";
import { dotAt, TopK } from "./top-k";
import type { VectorHit, VectorIndex, VectorIndexStats, VectorQuery, VectorRecord } from "./types";
import { checkNodeId, checkRecords, checkTopK, checkVector, decodeVectorInto, encodeVector, kindCode, parseKind } from "./vector-codec";
import { vectorRowFilter } from "./vector-filter";
import { NODE_KINDS } from "../vocabulary/node-kinds";

/** What a row is filtered by besides its kind (vector-filter.ts). */
interface RowScope {
  session: string | null;
  speaker: string | null;
}

/**
 * The cached matrix: row r holds node ids[r] of kind NODE_KINDS[kinds[r]], of scopes[r], at
 * data[r*dims, (r+1)*dims).
 */
class VectorMatrix {
  private data: Float32Array;
  private ids: Float64Array;
  private kinds: Uint8Array;
  private scopes: RowScope[] = [];
  private readonly rowOf = new Map<number, number>();
  count = 0;

  constructor(
    private readonly dims: number,
    capacity: number,
  ) {
    this.data = new Float32Array(capacity * dims);
    this.ids = new Float64Array(capacity);
    this.kinds = new Uint8Array(capacity);
  }

  /** Adds or replaces a node's row; the vector is copied, so the caller may reuse its array. */
  set(nodeId: number, kind: NodeKind, scope: RowScope, vector: Float32Array): void {
    const row = this.rowFor(nodeId, kind, scope);
    this.data.set(vector, row * this.dims);
  }

  /** As set, straight from a stored blob (one copy: the load path). */
  setBlob(nodeId: number, kind: NodeKind, scope: RowScope, blob: ArrayBuffer): void {
    decodeVectorInto(blob, this.dims, this.data, this.rowFor(nodeId, kind, scope) * this.dims);
  }

  /** Removes a node's row by moving the last row into its place (O(dims), order does not matter). */
  delete(nodeId: number): void {
    const row = this.rowOf.get(nodeId);
    if (row === undefined) return;
    const last = this.count - 1;
    if (row !== last) {
      const moved = this.ids[last] ?? 0;
      this.data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.ids[row] = moved;
      this.kinds[row] = this.kinds[last] ?? 0;
      this.scopes[row] = this.scopes[last] ?? NO_SCOPE;
      this.rowOf.set(moved, row);
    }
    this.rowOf.delete(nodeId);
    this.count = last;
  }

  search(query: VectorQuery): VectorHit[] {
    const best = new TopK(query.topK);
    const passes = vectorRowFilter(query);
    for (let row = 0; row < this.count; row += 1) {
      const scope = this.scopes[row] ?? NO_SCOPE;
      if (!passes(NODE_KINDS[this.kinds[row] ?? 0] ?? "segment", scope.session, scope.speaker)) continue;
      best.offer(this.ids[row] ?? 0, dotAt(query.vector, this.data, row * this.dims));
    }
    return best.results();
  }

  private rowFor(nodeId: number, kind: NodeKind, scope: RowScope): number {
    let row = this.rowOf.get(nodeId);
    if (row === undefined) {
      if (this.count === this.ids.length) this.grow();
      row = this.count;
      this.count += 1;
      this.rowOf.set(nodeId, row);
      this.ids[row] = nodeId;
    }
    this.kinds[row] = kindCode(kind);
    this.scopes[row] = scope;
    return row;
  }

  /** Doubles the capacity: amortised O(1) per added row. */
  private grow(): void {
    const capacity = Math.max(16, this.ids.length * 2);
    const data = new Float32Array(capacity * this.dims);
    data.set(this.data);
    const ids = new Float64Array(capacity);
    ids.set(this.ids);
    const kinds = new Uint8Array(capacity);
    kinds.set(this.kinds);
    this.data = data;
    this.ids = ids;
    this.kinds = kinds;
  }
}

/**
 * Memory per vector: the float32 values and the node id (a float64 in the id array); the kind byte
 * and the Map entry are left out. SQLite stores the same value bytes as the blob, plus per row a
 * varint id, the kind text and b-tree overhead, so the file is somewhat larger than this figure.
 */
function bytesFor(count: number, dims: number): number {
  return count * (dims * Float32Array.BYTES_PER_ELEMENT + Float64Array.BYTES_PER_ELEMENT);
}

export class LocalVectorIndex implements VectorIndex {
  readonly name = "local";
  private matrix: VectorMatrix | null = null;

  constructor(
    private readonly sql: SqlStorage,
    readonly dimensions: number,
  ) {
    if (!Number.isSafeInteger(dimensions) || dimensions < 1) throw new RangeError(`invalid dimensions ${dimensions}`);
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    checkRecords(records, this.dimensions);
    // No await between the writes: the Durable Object commits them together. The matrix follows
    // each row as it is written, so it never holds what SQLite does not.
    for (const r of records) {
      this.sql.exec(
        `INSERT INTO vectors (node_id, kind, vec, session, speaker) VALUES (?, ?, ?, ?, ?) ON CONFLICT (node_id)
         DO UPDATE SET kind = excluded.kind, vec = excluded.vec, session = excluded.session, speaker = excluded.speaker`,
        r.nodeId,
        r.kind,
        encodeVector(r.vector),
        r.session ?? null,
        r.speaker ?? null,
      );
      this.matrix?.set(r.nodeId, r.kind, { session: r.session ?? null, speaker: r.speaker ?? null }, r.vector);
    }
  }

  async remove(nodeIds: readonly number[]): Promise<void> {
    for (const id of nodeIds) checkNodeId(id);
    if (nodeIds.length === 0) return;
    this.sql.exec("DELETE FROM vectors WHERE node_id IN (SELECT value FROM json_each(?))", JSON.stringify(nodeIds));
    for (const id of nodeIds) this.matrix?.delete(id);
  }

  async query(query: VectorQuery): Promise<VectorHit[]> {
    checkTopK(query.topK);
    checkVector(query.vector, this.dimensions, "query vector");
    if (query.topK === 0) return [];
    return this.load().search(query);
  }

  /** Counts from SQLite when the matrix is not loaded yet, so asking for stats never loads it. */
  async stats(): Promise<VectorIndexStats> {
    const count = this.matrix?.count ?? countRows(this.sql);
    return { vectors: count, bytes: bytesFor(count, this.dimensions) };
  }

  private load(): VectorMatrix {
    if (this.matrix !== null) return this.matrix;
    const matrix = new VectorMatrix(this.dimensions, countRows(this.sql));
    // Rows as arrays, not objects: a wake's first vector search reads every row (10,000 at 10k nodes).
    for (const [nodeId, kind, vec, session, speaker] of this.sql.exec("SELECT node_id, kind, vec, session, speaker FROM vectors").raw()) {
      if (typeof nodeId !== "number" || !(vec instanceof ArrayBuffer)) throw new TypeError("malformed row in vectors");
      matrix.setBlob(nodeId, parseKind(kind), { session: textOrNull(session), speaker: textOrNull(speaker) }, vec);
    }
    this.matrix = matrix;
    return matrix;
  }
}

const NO_SCOPE: RowScope = { session: null, speaker: null };

function textOrNull(value: SqlStorageValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

function countRows(sql: SqlStorage): number {
  const n = sql.exec("SELECT COUNT(*) AS n FROM vectors").one().n;
  if (typeof n !== "number") throw new TypeError("COUNT(*) did not return a number");
  return n;
}
