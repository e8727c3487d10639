/**
 * Scan bookkeeping (docs/design.md §6 step 2: nodes are scanned in ascending scan_count), kept in the
 * object's own SQLite rather than on the D1 rows. A pass scans every node but the focus, so
 * instead of writing every node after every pass a node keeps a base: its scan count is the
 * agent's scan cycles minus its base. A new node starts at base = scan cycles (count 0); a pass of
 * k cycles adds k to the scan cycles and k to the base of each focus node it skipped. A pass
 * then costs writes for the focus only, and the scan order (count ascending, id ascending) is an
 * index read: base descending, id ascending.
 */
export interface ScanPosition {
  base: number;
  id: number;
}

export class ScanStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Registers new nodes at the given scan cycles (idempotent). */
  add(ids: readonly number[], scanCycles: number): void {
    if (ids.length === 0) return;
    this.sql.exec(
      "INSERT INTO node_scan (node_id, base) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING",
      scanCycles,
      JSON.stringify(ids),
    );
  }

  remove(ids: readonly number[]): void {
    if (ids.length === 0) return;
    this.sql.exec("DELETE FROM node_scan WHERE node_id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
  }

  /** The focus nodes a pass of `cycles` cycles skipped keep their scan count. */
  skip(ids: readonly number[], cycles: number): void {
    if (ids.length === 0) return;
    this.sql.exec("UPDATE node_scan SET base = base + ? WHERE node_id IN (SELECT value FROM json_each(?))", cycles, JSON.stringify(ids));
  }

  /** The next `limit` nodes after `after` in scan order, `excluded` left out. */
  page(after: ScanPosition | null, excluded: readonly number[], limit: number): ScanPosition[] {
    const skip = JSON.stringify(excluded);
    const rows = after
      ? this.sql.exec<{ node_id: number; base: number }>(
          `SELECT node_id, base FROM node_scan WHERE (base < ? OR (base = ? AND node_id > ?))
             AND node_id NOT IN (SELECT value FROM json_each(?)) ORDER BY base DESC, node_id LIMIT ?`,
          after.base,
          after.base,
          after.id,
          skip,
          limit,
        )
      : this.sql.exec<{ node_id: number; base: number }>(
          `SELECT node_id, base FROM node_scan WHERE node_id NOT IN (SELECT value FROM json_each(?))
             ORDER BY base DESC, node_id LIMIT ?`,
          skip,
          limit,
        );
    return rows.toArray().map((r) => ({ id: r.node_id, base: r.base }));
  }

  /** Scan counts of the given nodes (absent nodes are left out). */
  counts(ids: readonly number[], scanCycles: number): Map<number, number> {
    const out = new Map<number, number>();
    if (ids.length === 0) return out;
    for (const row of this.sql.exec<{ node_id: number; base: number }>(
      "SELECT node_id, base FROM node_scan WHERE node_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(ids),
    ))
      out.set(row.node_id, scanCycles - row.base);
    return out;
  }

  size(): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM node_scan").one().n;
  }

  clear(): void {
    this.sql.exec("DELETE FROM node_scan");
  }
}
