/**
 * The vectors written to Vectorize recently enough that a query may not see them yet, kept in the
 * `recent_vectors` table of the agent's Durable Object. Vectorize applies upserts asynchronously, so
 * without this buffer a node remembered a moment ago could be missing from the next recall; the
 * Vectorize adapter searches the buffer by brute force and merges its hits with Vectorize's.
 */
import type { VectorHit, VectorQuery, VectorRecord } from "./types";
import { dotAt, TopK } from "./top-k";
import { checkRecords, checkTopK, checkVector, decodeVectorInto, encodeVector, kindCode, kindMask, parseKind } from "./vector-codec";

/**
 * How long a written vector stays in the buffer. Vectorize documents that upserted vectors "typically
 * take a few seconds" to become queryable (Vectorize API reference, Upsert vectors); ten minutes is
 * two orders of magnitude above that, to cover a backlog of mutations, while keeping the buffer (and
 * so the brute-force scan on every query) down to what one agent writes in ten minutes.
 */
export const RECENT_WINDOW_MS = 10 * 60 * 1000;

export class RecentVectors {
  constructor(
    private readonly sql: SqlStorage,
    readonly dimensions: number,
    readonly windowMs: number = RECENT_WINDOW_MS,
  ) {
    if (!Number.isSafeInteger(dimensions) || dimensions < 1) throw new RangeError(`invalid dimensions ${dimensions}`);
    if (!(windowMs >= 0)) throw new RangeError(`invalid window ${windowMs}`);
  }

  /** Adds or replaces vectors, stamped `now` (a replaced vector restarts its window). */
  add(records: readonly VectorRecord[], now: number): void {
    checkRecords(records, this.dimensions);
    for (const r of records) {
      this.sql.exec(
        `INSERT INTO recent_vectors (node_id, kind, vec, written_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (node_id) DO UPDATE SET kind = excluded.kind, vec = excluded.vec, written_at = excluded.written_at`,
        r.nodeId,
        r.kind,
        encodeVector(r.vector),
        now,
      );
    }
  }

  remove(nodeIds: readonly number[]): void {
    if (nodeIds.length === 0) return;
    this.sql.exec("DELETE FROM recent_vectors WHERE node_id IN (SELECT value FROM json_each(?))", JSON.stringify(nodeIds));
  }

  /** Drops the entries written more than `windowMs` before `now`; returns how many were dropped. */
  prune(now: number): number {
    return this.sql.exec("DELETE FROM recent_vectors WHERE written_at < ?", now - this.windowMs).rowsWritten;
  }

  /** Every buffered node id (whatever its kind). */
  ids(): number[] {
    return this.sql
      .exec("SELECT node_id FROM recent_vectors")
      .toArray()
      .flatMap((row) => (typeof row.node_id === "number" ? [row.node_id] : []));
  }

  count(): number {
    const n = this.sql.exec("SELECT COUNT(*) AS n FROM recent_vectors").one().n;
    if (typeof n !== "number") throw new TypeError("COUNT(*) did not return a number");
    return n;
  }

  /** Exact top-k over the buffer (ties: the higher node id first), with the kinds filter. */
  query(query: VectorQuery): VectorHit[] {
    checkTopK(query.topK);
    checkVector(query.vector, this.dimensions, "query vector");
    if (query.topK === 0) return [];
    const mask = kindMask(query.kinds);
    const best = new TopK(query.topK);
    const scratch = new Float32Array(this.dimensions);
    for (const row of this.sql.exec("SELECT node_id, kind, vec FROM recent_vectors")) {
      const { node_id: nodeId, vec } = row;
      if (typeof nodeId !== "number" || !(vec instanceof ArrayBuffer)) throw new TypeError("malformed row in recent_vectors");
      if (mask[kindCode(parseKind(row.kind))] !== 1) continue;
      decodeVectorInto(vec, this.dimensions, scratch, 0);
      best.offer(nodeId, dotAt(query.vector, scratch, 0));
    }
    return best.results();
  }
}
