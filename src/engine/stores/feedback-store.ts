/**
 * Feedback's bookkeeping (docs/design.md, "Memory operations"): the compression cycle in which each
 * memory was last reinforced by feedback, kept in the object's SQLite (do-schema.ts `reinforced`).
 * A memory reported as used is reinforced at most once per compression cycle; the row is written
 * by the commit that reinforces it (the `markReinforced` write operation), so a redone commit
 * marks it once. The table and the operation keep their stored names.
 */
export class FeedbackStore {
  constructor(private readonly sql: SqlStorage) {}

  /** The cycle each of `ids` was last reinforced in (ids never reinforced are left out). */
  cycles(ids: readonly number[]): Map<number, number> {
    const out = new Map<number, number>();
    if (ids.length === 0) return out;
    for (const row of this.sql.exec<{ node_id: number; cycle: number }>(
      "SELECT node_id, cycle FROM reinforced WHERE node_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(ids),
    ))
      out.set(row.node_id, row.cycle);
    return out;
  }

  /** Every row, in node order (an export). */
  all(): { id: number; cycle: number }[] {
    return this.sql
      .exec<{ node_id: number; cycle: number }>("SELECT node_id, cycle FROM reinforced ORDER BY node_id")
      .toArray()
      .map((r) => ({ id: r.node_id, cycle: r.cycle }));
  }

  mark(ids: readonly number[], cycle: number): void {
    if (ids.length === 0) return;
    this.sql.exec(
      `INSERT INTO reinforced (node_id, cycle) SELECT value, ? FROM json_each(?) WHERE true
       ON CONFLICT (node_id) DO UPDATE SET cycle = excluded.cycle`,
      cycle,
      JSON.stringify(ids),
    );
  }

  remove(ids: readonly number[]): void {
    if (ids.length === 0) return;
    this.sql.exec("DELETE FROM reinforced WHERE node_id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
  }
}
