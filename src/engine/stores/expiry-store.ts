/**
 * When the agent's memories expire (docs/design.md, "Expiry is a purge at a time set in advance"),
 * in the object's `expiries` table: the schedule the object's one alarm serves besides its queue.
 * Kept by the object column of the writes that create, patch and delete nodes (write-table.ts), so
 * it is the network's expiries after every commit, crash or not.
 */
export class ExpiryStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Sets the expiry of each node (null: none any more). */
  set(nodes: readonly { id: number; expiresAt: number | null }[]): void {
    if (nodes.length === 0) return;
    this.sql.exec(
      "DELETE FROM expiries WHERE node_id IN (SELECT json_extract(value, '$.id') FROM json_each(?))",
      JSON.stringify(nodes.map((n) => ({ id: n.id }))),
    );
    const timed = nodes.filter((n) => n.expiresAt !== null);
    if (timed.length === 0) return;
    this.sql.exec(
      "INSERT INTO expiries (node_id, expires_at) SELECT json_extract(value, '$.id'), json_extract(value, '$.at') FROM json_each(?)",
      JSON.stringify(timed.map((n) => ({ id: n.id, at: n.expiresAt }))),
    );
  }

  remove(ids: readonly number[]): void {
    if (ids.length === 0) return;
    this.sql.exec("DELETE FROM expiries WHERE node_id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
  }

  /** The earliest expiry, or null when no memory has one. */
  earliest(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(expires_at) AS at FROM expiries").one().at;
  }

  /** Up to `limit` node ids expired at `now`, earliest first. */
  due(now: number, limit: number): number[] {
    return this.sql
      .exec<{ node_id: number }>("SELECT node_id FROM expiries WHERE expires_at <= ? ORDER BY expires_at, node_id LIMIT ?", now, limit)
      .toArray()
      .map((r) => r.node_id);
  }

  clear(): void {
    this.sql.exec("DELETE FROM expiries");
  }
}
