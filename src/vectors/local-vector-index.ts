/**
 * The local vector index (VECTOR_PROVIDER=local, DESIGN §8): exact cosine search by brute force over
 * the agent's vectors, persisted in the `vectors` table of the agent's own Durable Object SQLite so
 * the index survives eviction. The in-memory matrix is a cache of that table (STYLE 6): built on the
 * first query after a wake, then kept in step by every write, never reloaded.
 */
import type { NodeKind } from "../memory/node";
import type { VectorHit, VectorIndex, VectorIndexStats, VectorQuery, VectorRecord } from "./types";
import { checkNodeId, checkTopK, checkVector, decodeVectorInto, encodeVector, kindCode, kindMask, parseKind } from "./vector-codec";

/**
 * Dot product of `query` with the row of `matrix` at `offset` (= cosine: vectors are unit length),
 * summed in double precision over four lanes, lane j taking the dimensions d with d % 4 === j, and
 * returned as (lane0 + lane1) + (lane2 + lane3). The four independent sums run about twice as fast
 * as one running sum (no wait on the previous addition); every caller sums in this same order, so
 * the same vectors always give the same score, bit for bit.
 */
export function dotAt(query: Float32Array, matrix: Float32Array, offset: number): number {
  const n = query.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < n; d += 4) {
    const o = offset + d;
    s0 += (query[d] ?? 0) * (matrix[o] ?? 0);
    s1 += (query[d + 1] ?? 0) * (matrix[o + 1] ?? 0);
    s2 += (query[d + 2] ?? 0) * (matrix[o + 2] ?? 0);
    s3 += (query[d + 3] ?? 0) * (matrix[o + 3] ?? 0);
  }
  if (d < n) s0 += (query[d] ?? 0) * (matrix[offset + d] ?? 0);
  if (d + 1 < n) s1 += (query[d + 1] ?? 0) * (matrix[offset + d + 1] ?? 0);
  if (d + 2 < n) s2 += (query[d + 2] ?? 0) * (matrix[offset + d + 2] ?? 0);
  return s0 + s1 + (s2 + s3);
}

/** Ranking order: higher score first; equal scores rank the higher node id (the newer node) first. */
function ranksAbove(score: number, nodeId: number, otherScore: number, otherId: number): boolean {
  return score > otherScore || (score === otherScore && nodeId > otherId);
}

/**
 * The k best hits offered so far: a bounded min-heap whose root is the worst hit kept, so n offers
 * cost O(n log k), most rejected by one comparison with the root (no sort of all n scores).
 */
export class TopK {
  private readonly scores: number[] = [];
  private readonly ids: number[] = [];

  constructor(private readonly k: number) {}

  offer(nodeId: number, score: number): void {
    const size = this.scores.length;
    if (size < this.k) {
      this.scores.push(score);
      this.ids.push(nodeId);
      this.siftUp(size);
    } else if (size > 0 && ranksAbove(score, nodeId, this.scores[0] ?? 0, this.ids[0] ?? 0)) {
      this.scores[0] = score;
      this.ids[0] = nodeId;
      this.siftDown(0);
    }
  }

  /** The hits kept, best first. */
  results(): VectorHit[] {
    const hits = this.ids.map((nodeId, i) => ({ nodeId, score: this.scores[i] ?? 0 }));
    return hits.sort((a, b) => b.score - a.score || b.nodeId - a.nodeId);
  }

  private above(i: number, j: number): boolean {
    return ranksAbove(this.scores[i] ?? 0, this.ids[i] ?? 0, this.scores[j] ?? 0, this.ids[j] ?? 0);
  }

  private swap(i: number, j: number): void {
    const score = this.scores[i] ?? 0;
    const id = this.ids[i] ?? 0;
    this.scores[i] = this.scores[j] ?? 0;
    this.ids[i] = this.ids[j] ?? 0;
    this.scores[j] = score;
    this.ids[j] = id;
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(parent, i)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      let worst = i;
      if (left < this.scores.length && this.above(worst, left)) worst = left;
      if (left + 1 < this.scores.length && this.above(worst, left + 1)) worst = left + 1;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}

/** The cached matrix: row r holds node ids[r] of kind NODE_KINDS[kinds[r]] at data[r*dims, (r+1)*dims). */
class VectorMatrix {
  private data: Float32Array;
  private ids: Float64Array;
  private kinds: Uint8Array;
  private readonly rowOf = new Map<number, number>();
  count = 0;

  constructor(private readonly dims: number, capacity: number) {
    this.data = new Float32Array(capacity * dims);
    this.ids = new Float64Array(capacity);
    this.kinds = new Uint8Array(capacity);
  }

  /** Adds or replaces a node's row; the vector is copied, so the caller may reuse its array. */
  set(nodeId: number, kind: NodeKind, vector: Float32Array): void {
    const row = this.rowFor(nodeId, kind);
    this.data.set(vector, row * this.dims);
  }

  /** As set, straight from a stored blob (one copy: the load path). */
  setBlob(nodeId: number, kind: NodeKind, blob: ArrayBuffer): void {
    decodeVectorInto(blob, this.dims, this.data, this.rowFor(nodeId, kind) * this.dims);
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
      this.rowOf.set(moved, row);
    }
    this.rowOf.delete(nodeId);
    this.count = last;
  }

  search(query: Float32Array, topK: number, mask: Uint8Array): VectorHit[] {
    const best = new TopK(topK);
    for (let row = 0; row < this.count; row += 1) {
      if (mask[this.kinds[row] ?? 0] !== 1) continue;
      best.offer(this.ids[row] ?? 0, dotAt(query, this.data, row * this.dims));
    }
    return best.results();
  }

  private rowFor(nodeId: number, kind: NodeKind): number {
    let row = this.rowOf.get(nodeId);
    if (row === undefined) {
      if (this.count === this.ids.length) this.grow();
      row = this.count;
      this.count += 1;
      this.rowOf.set(nodeId, row);
      this.ids[row] = nodeId;
    }
    this.kinds[row] = kindCode(kind);
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

  constructor(private readonly sql: SqlStorage, readonly dimensions: number) {
    if (!Number.isSafeInteger(dimensions) || dimensions < 1) throw new RangeError(`invalid dimensions ${dimensions}`);
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    for (const r of records) {
      checkNodeId(r.nodeId);
      parseKind(r.kind);
      checkVector(r.vector, this.dimensions, `vector of node ${r.nodeId}`);
    }
    // No await between the writes: the Durable Object commits them together. The matrix follows
    // each row as it is written, so it never holds what SQLite does not.
    for (const r of records) {
      this.sql.exec(
        "INSERT INTO vectors (node_id, kind, vec) VALUES (?, ?, ?) ON CONFLICT (node_id) DO UPDATE SET kind = excluded.kind, vec = excluded.vec",
        r.nodeId,
        r.kind,
        encodeVector(r.vector),
      );
      this.matrix?.set(r.nodeId, r.kind, r.vector);
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
    return this.load().search(query.vector, query.topK, kindMask(query.kinds));
  }

  /** Counts from SQLite when the matrix is not loaded yet, so asking for stats never loads it. */
  async stats(): Promise<VectorIndexStats> {
    const count = this.matrix?.count ?? countRows(this.sql);
    return { vectors: count, bytes: bytesFor(count, this.dimensions) };
  }

  private load(): VectorMatrix {
    if (this.matrix !== null) return this.matrix;
    const matrix = new VectorMatrix(this.dimensions, countRows(this.sql));
    for (const row of this.sql.exec("SELECT node_id, kind, vec FROM vectors")) {
      const { node_id: nodeId, vec } = row;
      if (typeof nodeId !== "number" || !(vec instanceof ArrayBuffer)) throw new TypeError("malformed row in vectors");
      matrix.setBlob(nodeId, parseKind(row.kind), vec);
    }
    this.matrix = matrix;
    return matrix;
  }
}

function countRows(sql: SqlStorage): number {
  const n = sql.exec("SELECT COUNT(*) AS n FROM vectors").one().n;
  if (typeof n !== "number") throw new TypeError("COUNT(*) did not return a number");
  return n;
}
