/**
 * The client message ids an agent holds (src/engine/stores/do-schema.ts `messages`): a message whose id the
 * agent already holds is not stored again, so a client that re-sends a remember it never got an
 * answer for (or sends overlapping history) creates no duplicate memories.
 */
export class MessageIds {
  constructor(private readonly sql: SqlStorage) {}

  /** The ids among `ids` that the agent already holds. */
  held(ids: readonly string[]): Set<string> {
    const out = new Set<string>();
    if (ids.length === 0) return out;
    for (const row of this.sql.exec<{ id: string }>(
      "SELECT id FROM messages WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify(ids),
    ))
      out.add(row.id);
    return out;
  }

  record(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.sql.exec("INSERT INTO messages (id) SELECT value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING", JSON.stringify(ids));
  }

  /** The agent no longer holds these ids (a purge): a message re-sent with one is stored again. */
  forget(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.sql.exec("DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
  }

  /** Every id held, in id order (an export). */
  all(): string[] {
    return this.sql
      .exec<{ id: string }>("SELECT id FROM messages ORDER BY id")
      .toArray()
      .map((r) => r.id);
  }

  count(): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages").one().n;
  }

  clear(): void {
    this.sql.exec("DELETE FROM messages");
  }
}
