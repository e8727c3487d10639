/**
 * Scan bookkeeping (docs/design.md, "Compression": nodes are scanned in ascending scan count), kept in the
 * object's own SQLite rather than on the D1 rows. A pass scans every node but the focus, so
 * instead of writing every node after every pass a node keeps a base: its scan count is the
 * agent's scan cycles minus its base. A new node starts at base = scan cycles (count 0); a pass of
 * k cycles adds k to the scan cycles and k to the base of each focus node it skipped. A pass
 * then costs writes for the focus only.
 *
 * The scan order (count ascending, id ascending: base descending, id ascending) is served from an
 * in-memory copy of the table, sorted once per change, so a pass reads no rows page by page; the
 * table is the truth and the copy is rebuilt from it on wake.
 */
export interface ScanPosition {
  base: number;
  id: number;
}

export class ScanStore {
  private bases: Map<number, number> | undefined;
  /** The bases in scan order; undefined after a change (sorted again on the next page). */
  private order: ScanPosition[] | undefined;

  constructor(private readonly sql: SqlStorage) {}

  /** Registers new nodes at the given scan cycles (idempotent). */
  add(ids: readonly number[], scanCycles: number): void {
    if (ids.length === 0) return;
    this.sql.exec(
      "INSERT INTO node_scan (node_id, base) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING",
      scanCycles,
      JSON.stringify(ids),
    );
    const bases = this.load();
    for (const id of ids) if (!bases.has(id)) bases.set(id, scanCycles);
    this.order = undefined;
  }

  remove(ids: readonly number[]): void {
    if (ids.length === 0) return;
    this.sql.exec("DELETE FROM node_scan WHERE node_id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
    const bases = this.load();
    for (const id of ids) bases.delete(id);
    this.order = undefined;
  }

  /** Sets scan counts (an import): count = scan cycles − base, so base = scan cycles − count. */
  setCounts(counts: readonly { id: number; count: number }[], scanCycles: number): void {
    if (counts.length === 0) return;
    const rows = counts.map((c) => ({ id: c.id, base: scanCycles - c.count }));
    this.sql.exec(
      `INSERT INTO node_scan (node_id, base) SELECT json_extract(value, '$.id'), json_extract(value, '$.base') FROM json_each(?) WHERE true
       ON CONFLICT (node_id) DO UPDATE SET base = excluded.base`,
      JSON.stringify(rows),
    );
    const bases = this.load();
    for (const r of rows) bases.set(r.id, r.base);
    this.order = undefined;
  }

  /** The focus nodes a pass of `cycles` cycles skipped keep their scan count. */
  skip(ids: readonly number[], cycles: number): void {
    if (ids.length === 0) return;
    this.sql.exec("UPDATE node_scan SET base = base + ? WHERE node_id IN (SELECT value FROM json_each(?))", cycles, JSON.stringify(ids));
    const bases = this.load();
    for (const id of ids) {
      const base = bases.get(id);
      if (base !== undefined) bases.set(id, base + cycles);
    }
    this.order = undefined;
  }

  /** The next `limit` nodes after `after` in scan order, `excluded` left out. */
  page(after: ScanPosition | null, excluded: readonly number[], limit: number): ScanPosition[] {
    const order = this.sorted();
    let i = 0;
    if (after) {
      // The first position past `after`: (base descending, id ascending).
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const p = order[mid];
        if (p && (p.base > after.base || (p.base === after.base && p.id <= after.id))) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    const skip = new Set(excluded);
    const out: ScanPosition[] = [];
    for (; i < order.length && out.length < limit; i++) {
      const p = order[i];
      if (p && !skip.has(p.id)) out.push(p);
    }
    return out;
  }

  /** Scan counts of the given nodes (absent nodes are left out). */
  counts(ids: readonly number[], scanCycles: number): Map<number, number> {
    const bases = this.load();
    const out = new Map<number, number>();
    for (const id of ids) {
      const base = bases.get(id);
      if (base !== undefined) out.set(id, scanCycles - base);
    }
    return out;
  }

  size(): number {
    return this.load().size;
  }

  clear(): void {
    this.sql.exec("DELETE FROM node_scan");
    this.bases = new Map();
    this.order = undefined;
  }

  /** Forgets the copy (a transaction that changed the table rolled back): read again on next use. */
  forget(): void {
    this.bases = undefined;
    this.order = undefined;
  }

  private load(): Map<number, number> {
    this.bases ??= new Map(
      this.sql
        .exec<{ node_id: number; base: number }>("SELECT node_id, base FROM node_scan")
        .toArray()
        .map((r) => [r.node_id, r.base]),
    );
    return this.bases;
  }

  private sorted(): ScanPosition[] {
    this.order ??= [...this.load()].map(([id, base]) => ({ id, base })).sort((a, b) => b.base - a.base || a.id - b.id);
    return this.order;
  }
}
