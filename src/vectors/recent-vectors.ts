/**
 * The vectors written to Vectorize that a query may not see yet, kept in the `recent_vectors`
 * table of the agent's Durable Object. Vectorize applies writes asynchronously: an upsert answers
 * with a mutation id at once, and the index reports how far it has applied its mutations
 * (`describe()`: processedUpToMutation, processedUpToDatetime). Without this buffer a node
 * remembered a moment ago could be missing from the next recall; the Vectorize adapter searches
 * the buffer by brute force and merges its hits with Vectorize's.
 *
 * A vector stays here until the index reports its mutation processed, not for a fixed time:
 * - when the index names one of this agent's mutations as the last processed, that mutation and
 *   every earlier one of the agent's (mutations are applied in order) are released;
 * - when the index reports processing up to a time at least RELEASE_MARGIN_MS after the moment the
 *   service accepted the mutation (other agents' mutations are usually the last processed);
 * - a vector whose write was never accepted (the upsert failed, e.g. on a full index) stays until
 *   it is written again or removed: the buffer is then the only place a search finds it.
 * RECENT_BACKSTOP_MS bounds how long an accepted vector waits for a report that never comes.
 */
import type { VectorHit, VectorQuery, VectorRecord } from "./types";
import { dotAt, TopK } from "./top-k";
import { checkRecords, checkTopK, checkVector, decodeVectorInto, encodeVector, parseKind } from "./vector-codec";
import { vectorRowFilter } from "./vector-filter";

/**
 * Slack between the Worker's clock and the index's when comparing processedUpToDatetime with the
 * moment a mutation was accepted (a Worker's clock moves at I/O: it may lag a little).
 */
export const RELEASE_MARGIN_MS = 2_000;

/**
 * The longest an accepted vector waits for the index to report it processed. Vectorize documents
 * that writes "typically take a few seconds" to be queryable (Vectorize API reference, Upsert
 * vectors); an hour is far past any backlog, and keeps the buffer (scanned by every query) from
 * growing when an index stops reporting.
 */
export const RECENT_BACKSTOP_MS = 60 * 60 * 1000;

/** What the index reports about its processing (describe()). */
export interface ProcessedUpTo {
  /** The last mutation processed (a UUID), when known. */
  mutation: string | null;
  /** When that mutation was made, in ms since the epoch, when known. */
  at: number | null;
}

export class RecentVectors {
  constructor(
    private readonly sql: SqlStorage,
    readonly dimensions: number,
  ) {
    if (!Number.isSafeInteger(dimensions) || dimensions < 1) throw new RangeError(`invalid dimensions ${dimensions}`);
  }

  /**
   * Adds or replaces vectors, stamped `now`, as not yet accepted by the index: a replaced vector
   * waits for its new write.
   */
  add(records: readonly VectorRecord[], now: number): void {
    checkRecords(records, this.dimensions);
    for (const r of records) {
      this.sql.exec(
        `INSERT INTO recent_vectors (node_id, kind, vec, written_at, mutation_id, accepted_at, mutation_seq, session, speaker)
         VALUES (?, ?, ?, ?, NULL, NULL, NULL, ?, ?)
         ON CONFLICT (node_id) DO UPDATE SET kind = excluded.kind, vec = excluded.vec, written_at = excluded.written_at,
           mutation_id = NULL, accepted_at = NULL, mutation_seq = NULL, session = excluded.session, speaker = excluded.speaker`,
        r.nodeId,
        r.kind,
        encodeVector(r.vector),
        now,
        r.session ?? null,
        r.speaker ?? null,
      );
    }
  }

  /**
   * The index accepted the write of `nodeIds` at `now` as mutation `mutationId` (null when the
   * binding answered without one). Mutations are numbered in the order they were accepted.
   */
  accepted(nodeIds: readonly number[], mutationId: string | null, now: number): void {
    if (nodeIds.length === 0) return;
    const seq = this.sql.exec<{ seq: number }>("SELECT coalesce(max(mutation_seq), 0) + 1 AS seq FROM recent_vectors").one().seq;
    this.sql.exec(
      "UPDATE recent_vectors SET mutation_id = ?, accepted_at = ?, mutation_seq = ? WHERE node_id IN (SELECT value FROM json_each(?))",
      mutationId,
      now,
      seq,
      JSON.stringify(nodeIds),
    );
  }

  remove(nodeIds: readonly number[]): void {
    if (nodeIds.length === 0) return;
    this.sql.exec("DELETE FROM recent_vectors WHERE node_id IN (SELECT value FROM json_each(?))", JSON.stringify(nodeIds));
  }

  /** Whether any buffered vector waits for the index to report its mutation processed. */
  awaitingReport(): boolean {
    return this.sql.exec("SELECT 1 FROM recent_vectors WHERE accepted_at IS NOT NULL LIMIT 1").toArray().length > 0;
  }

  /**
   * Releases the vectors whose mutations the index reports processed, and those accepted more
   * than RECENT_BACKSTOP_MS before `now`; returns how many left the buffer.
   */
  release(processed: ProcessedUpTo, now: number): number {
    const before = this.count();
    if (processed.mutation !== null) {
      const own = this.sql
        .exec<{ seq: number | null }>("SELECT max(mutation_seq) AS seq FROM recent_vectors WHERE mutation_id = ?", processed.mutation)
        .one().seq;
      if (own !== null) this.sql.exec("DELETE FROM recent_vectors WHERE accepted_at IS NOT NULL AND mutation_seq <= ?", own);
    }
    if (processed.at !== null) {
      this.sql.exec("DELETE FROM recent_vectors WHERE accepted_at IS NOT NULL AND accepted_at <= ?", processed.at - RELEASE_MARGIN_MS);
    }
    this.sql.exec("DELETE FROM recent_vectors WHERE accepted_at IS NOT NULL AND accepted_at < ?", now - RECENT_BACKSTOP_MS);
    return before - this.count();
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

  /** Exact top-k over the buffer (ties: the higher node id first), with the index's filters (kind, session, speaker). */
  query(query: VectorQuery): VectorHit[] {
    checkTopK(query.topK);
    checkVector(query.vector, this.dimensions, "query vector");
    if (query.topK === 0) return [];
    const passes = vectorRowFilter(query);
    const best = new TopK(query.topK);
    const scratch = new Float32Array(this.dimensions);
    for (const row of this.sql.exec("SELECT node_id, kind, vec, session, speaker FROM recent_vectors")) {
      const { node_id: nodeId, vec, session, speaker } = row;
      if (typeof nodeId !== "number" || !(vec instanceof ArrayBuffer)) throw new TypeError("malformed row in recent_vectors");
      if (!passes(parseKind(row.kind), typeof session === "string" ? session : null, typeof speaker === "string" ? speaker : null))
        continue;
      decodeVectorInto(vec, this.dimensions, scratch, 0);
      best.offer(nodeId, dotAt(query.vector, scratch, 0));
    }
    return best.results();
  }
}
