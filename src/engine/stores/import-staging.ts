/**
 * Import lines waiting for their import task (docs/design.md, "Memory operations", export and import). An import
 * body may be far larger than a task payload (one SQLite row), so the HTTP layer validates it line
 * by line and hands the lines over in batches; they are kept here, under the import's id (the
 * SHA-256 of the body), until the import task has read them. Nothing here is the agent's memory:
 * a staged import that never runs changes nothing, and stale stagings are dropped after a day.
 */

/** Stagings older than this are dropped when a new one begins (a client that gave up mid-upload). */
export const STAGING_TTL_MS = 24 * 60 * 60 * 1000;

export class ImportStaging {
  constructor(private readonly sql: SqlStorage) {}

  /** Starts staging `importId` afresh (and drops stale stagings of any id). */
  begin(importId: string, now: number): void {
    this.sql.exec("DELETE FROM import_staging WHERE import_id = ? OR created_at < ?", importId, now - STAGING_TTL_MS);
  }

  /**
   * Adds lines at positions `from`, `from + 1`, … (a re-sent batch replaces itself). One statement
   * per line: each line is its own value (at most MAX_IMPORT_LINE_BYTES), never part of a larger
   * parameter that could pass SQLite's 2 MB.
   */
  add(importId: string, from: number, lines: readonly string[], now: number): void {
    lines.forEach((line, i) =>
      this.sql.exec(
        `INSERT INTO import_staging (import_id, seq, line, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (import_id, seq) DO UPDATE SET line = excluded.line`,
        importId,
        from + i,
        line,
        now,
      ),
    );
  }

  /** Every staging of the agent (agent deletion: nothing of the old agent's content stays). */
  dropAll(): void {
    this.sql.exec("DELETE FROM import_staging");
  }

  /** Moves a finished staging to its final id (the body's digest, known only at the end). */
  rename(from: string, to: string): void {
    if (from === to) return;
    this.sql.exec("DELETE FROM import_staging WHERE import_id = ?", to);
    this.sql.exec("UPDATE import_staging SET import_id = ? WHERE import_id = ?", to, from);
  }

  count(importId: string): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM import_staging WHERE import_id = ?", importId).one().n;
  }

  /** Lines after position `after`, in order. */
  page(importId: string, after: number, limit: number): { seq: number; line: string }[] {
    return this.sql
      .exec<{ seq: number; line: string }>(
        "SELECT seq, line FROM import_staging WHERE import_id = ? AND seq > ? ORDER BY seq LIMIT ?",
        importId,
        after,
        limit,
      )
      .toArray();
  }

  drop(importId: string): void {
    this.sql.exec("DELETE FROM import_staging WHERE import_id = ?", importId);
  }
}
