/**
 * The agent's usage per UTC day (docs/deploy.md, "Usage"), counted where it happens, in the
 * object's own SQLite (no round trip): requests by kind, model calls by kind, D1 rows read and
 * written. The counts are absolute per day, so reporting them to D1 (agent_usage) is idempotent:
 * a report repeated after a crash changes nothing, and one lost is covered by the next. The
 * object reports at most once per REPORT_INTERVAL_MS while it has unreported counts (the queue
 * runner arms its alarm for it), so usage costs no D1 write per request. Kept DAYS_KEPT days,
 * through agent deletion and purges: it is the tenant's bill, not memory.
 */
import { utcDay } from "../../config/quotas";
import type { UsageRow } from "../../storage/tenant-usage";

/** Days of counts the object keeps (D1 has them from the first report on). */
const DAYS_KEPT = 40;

export class UsageDays {
  /** When the counts were last reported (in memory: after a wake the first report may come at once). */
  private reportedAt = 0;

  constructor(
    private readonly sql: SqlStorage,
    /** The least time between two reports. */
    private readonly intervalMs: number,
  ) {}

  /** Adds to today's counts. */
  add(deltas: Readonly<Record<string, number>>, now: number = Date.now()): void {
    const day = utcDay(now);
    for (const [metric, delta] of Object.entries(deltas)) {
      if (delta === 0 || !Number.isFinite(delta)) continue;
      this.sql.exec(
        "INSERT INTO usage_days (day, metric, value) VALUES (?, ?, ?) ON CONFLICT (day, metric) DO UPDATE SET value = value + excluded.value",
        day,
        metric,
        Math.round(delta),
      );
    }
  }

  /** Counts D1 has not been told yet. */
  unreported(): UsageRow[] {
    return this.sql
      .exec<UsageRow & Record<string, SqlStorageValue>>("SELECT day, metric, value FROM usage_days WHERE value > reported")
      .toArray();
  }

  /** When a report is due: null with nothing to report, else no sooner than the interval after the last. */
  dueAt(): number | null {
    const [row] = this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM usage_days WHERE value > reported").toArray();
    return (row?.n ?? 0) > 0 ? this.reportedAt + this.intervalMs : null;
  }

  /** After D1 took `rows`: they are reported up to the values sent (counts added since stay due). */
  markReported(rows: readonly UsageRow[], now: number): void {
    for (const row of rows) {
      this.sql.exec("UPDATE usage_days SET reported = max(reported, ?) WHERE day = ? AND metric = ?", row.value, row.day, row.metric);
    }
    this.sql.exec("DELETE FROM usage_days WHERE day < ? AND value <= reported", utcDay(now - DAYS_KEPT * 86_400_000));
    this.reportedAt = now;
  }
}
