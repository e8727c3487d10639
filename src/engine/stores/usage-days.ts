/**
 * The agent's usage per UTC day (docs/deploy.md, "Usage"), counted where it happens, in the
 * object's own SQLite (no round trip): requests by kind, model calls by kind, D1 rows read and
 * written. The counts are absolute per day, so reporting them to D1 (agent_usage) is idempotent:
 * a report repeated after a crash changes nothing, and one lost is covered by the next. The
 * object reports at most once per REPORT_INTERVAL_MS while it has unreported counts (the queue
 * runner arms its alarm for it), so usage costs no D1 write per request. Kept DAYS_KEPT days,
 * through agent deletion and purges: it is the tenant's bill, not memory.
 *
 * Off the answer's path: `add` keeps counts in memory and writes them together in the next turn
 * of the event loop (a timer of 0 ms), after the answer of the request that counted them has
 * left. A write made before an answer holds the answer until storage confirms it (the object's
 * output gate), which cost a warm read ~1–3 ms locally (docs/BENCHMARKS.md, "The per-request
 * floor"). Every reader of the counts (`unreported`, `dueAt`) writes what is pending first, so
 * nothing is reported short or twice; a crash within that one turn loses the counts it held,
 * as a crash between a model call or D1 statement and its count always could. `addNow` writes at
 * once, inside the caller's transaction: an accepted write's count commits with the write.
 */
import { utcDay } from "../../config/quotas";
import type { UsageRow } from "../../storage/tenant-usage";

/** Days of counts the object keeps (D1 has them from the first report on). */
const DAYS_KEPT = 40;

export class UsageDays {
  /** When the counts were last reported (in memory: after a wake the first report may come at once). */
  private reportedAt = 0;
  /** Counts not written yet, by day and metric (written by the next turn's flush). */
  private readonly pending = new Map<string, { day: string; metric: string; value: number }>();
  private flushScheduled = false;

  constructor(
    private readonly sql: SqlStorage,
    /** The least time between two reports. */
    private readonly intervalMs: number,
  ) {}

  /** Adds to today's counts, written in the next turn of the event loop (see the header). */
  add(deltas: Readonly<Record<string, number>>, now: number = Date.now()): void {
    const day = utcDay(now);
    for (const [metric, delta] of Object.entries(deltas)) {
      if (delta === 0 || !Number.isFinite(delta)) continue;
      const key = `${day} ${metric}`;
      const entry = this.pending.get(key);
      if (entry) entry.value += Math.round(delta);
      else this.pending.set(key, { day, metric, value: Math.round(delta) });
    }
    if (this.pending.size > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      setTimeout(() => this.flushLogged(), 0);
    }
  }

  /** Adds to today's counts now, with what is pending: inside a transaction, they commit with it. */
  addNow(deltas: Readonly<Record<string, number>>, now: number = Date.now()): void {
    this.add(deltas, now);
    this.flush();
  }

  /** Writes the pending counts (one upsert per day and metric). */
  flush(): void {
    for (const [key, { day, metric, value }] of this.pending) {
      if (value !== 0) {
        this.sql.exec(
          "INSERT INTO usage_days (day, metric, value) VALUES (?, ?, ?) ON CONFLICT (day, metric) DO UPDATE SET value = value + excluded.value",
          day,
          metric,
          value,
        );
      }
      // Deleted once written: a statement that throws leaves the rest pending for the next flush.
      this.pending.delete(key);
    }
  }

  /** The timer's flush: a failure is logged and the counts stay pending (the next add, or a reader, writes them). */
  private flushLogged(): void {
    this.flushScheduled = false;
    try {
      this.flush();
    } catch (err) {
      console.warn("usage counts could not be written yet; they stay pending", err);
    }
  }

  /** Counts D1 has not been told yet. */
  unreported(): UsageRow[] {
    this.flush();
    return this.sql
      .exec<UsageRow & Record<string, SqlStorageValue>>("SELECT day, metric, value FROM usage_days WHERE value > reported")
      .toArray();
  }

  /** When a report is due: null with nothing to report, else no sooner than the interval after the last. */
  dueAt(): number | null {
    this.flush();
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
