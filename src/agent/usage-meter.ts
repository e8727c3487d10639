/**
 * What one agent's Durable Object spends of the billed platform resources, for the cost table of
 * docs/deploy.md ("Cost and ceiling"): Durable Object requests (every RPC method call and every
 * alarm is one billed request) and active time, D1 rows read and written (metered-d1.ts), the
 * object's own SQLite rows read and written (metered-do-sql.ts; billed at D1's prices), vector
 * queries and stored dimensions (src/vectors/metered-vector-index.ts).
 *
 * Active time is the wall time during which the object handles at least one request, alarm or
 * queue drain (overlapping ones counted once); Durable Objects bill duration while the object
 * runs or is idle but cannot hibernate, so this is the least a deployment is billed.
 *
 * Off unless BENCH_USAGE_COUNTERS is "1" (the production-shaped benchmark sets it): counting
 * reads D1 rows through `all()` (metered-d1.ts), which a deployment should not pay for. Counts are
 * kept in memory and added to the agent's lifetime counters (its stats) just after the object
 * becomes idle, so no request waits for the meter's storage write.
 */
import type { D1Usage } from "../storage/metered-d1";
import type { DoSqlUsage } from "../storage/metered-do-sql";
import type { VectorUsage } from "../vectors/metered-vector-index";

/**
 * The vars are read from the Worker's env (any `Env`; the type needs one of its bindings to match
 * it). Benchmark only, never set in a deployment: BENCH_USAGE_COUNTERS turns the meter on;
 * BENCH_D1_RTT_MS adds that many milliseconds to every D1 round trip (the cold-path benchmark's
 * simulated network); BENCH_HOOKS opens the benchmark's hooks (bench-hooks.ts).
 */
export type UsageEnv = Pick<Env, "DB"> & {
  readonly BENCH_USAGE_COUNTERS?: string;
  readonly BENCH_D1_RTT_MS?: string;
  readonly BENCH_HOOKS?: string;
};

export function usageMetered(env: UsageEnv): boolean {
  return env.BENCH_USAGE_COUNTERS === "1";
}

/** Whether the benchmark's hooks are served (bench-hooks.ts). */
export function benchHooksOn(env: UsageEnv): boolean {
  return env.BENCH_HOOKS === "1";
}

export type BenchAction = "evict" | "usage" | "copy";

/** The simulated D1 round trip in milliseconds (0: none). */
export function benchD1DelayMs(env: UsageEnv): number {
  const ms = Number(env.BENCH_D1_RTT_MS ?? "0");
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** The counter of requests to the object's method (or handler) `name`. */
export const requestCounter = (name: string): string => `do_requests_${name}`;

export const USAGE_COUNTERS = {
  activeMs: "do_active_ms",
  d1RowsRead: "d1_rows_read",
  d1RowsWritten: "d1_rows_written",
  d1Unmetered: "d1_statements_unmetered",
  doRowsRead: "do_rows_read",
  doRowsWritten: "do_rows_written",
  d1RoundTrips: "d1_round_trips",
  d1SequentialRoundTrips: "d1_sequential_round_trips",
  vectorQueries: "vector_queries",
  vectorsUpserted: "vectors_upserted",
  vectorDimensionsUpserted: "vector_dimensions_upserted",
  vectorsRemoved: "vectors_removed",
} as const;

/** The counter of D1 rows written (or read) by statements of one kind (metered-d1.ts, statementKind). */
export const d1RowsWrittenCounter = (kind: string): string => `${USAGE_COUNTERS.d1RowsWritten}:${kind}`;
export const d1RowsReadCounter = (kind: string): string => `${USAGE_COUNTERS.d1RowsRead}:${kind}`;

/** D1 usage (metered-d1.ts) as counters: totals, round trips, and rows by kind of statement. */
export function d1Counters(usage: D1Usage): Record<string, number> {
  return {
    [USAGE_COUNTERS.d1RowsRead]: usage.rowsRead,
    [USAGE_COUNTERS.d1RowsWritten]: usage.rowsWritten,
    [USAGE_COUNTERS.d1Unmetered]: usage.unmetered,
    [USAGE_COUNTERS.d1RoundTrips]: usage.roundTrips ?? 0,
    [USAGE_COUNTERS.d1SequentialRoundTrips]: usage.sequentialRoundTrips ?? 0,
    ...(usage.kind === undefined
      ? {}
      : { [d1RowsWrittenCounter(usage.kind)]: usage.rowsWritten, [d1RowsReadCounter(usage.kind)]: usage.rowsRead }),
  };
}

/** The object's own SQLite rows (metered-do-sql.ts) as counters: totals and rows by kind of statement. */
export function doSqlCounters(usage: DoSqlUsage): Record<string, number> {
  return {
    [USAGE_COUNTERS.doRowsRead]: usage.rowsRead,
    [USAGE_COUNTERS.doRowsWritten]: usage.rowsWritten,
    [`${USAGE_COUNTERS.doRowsWritten}:${usage.kind}`]: usage.rowsWritten,
  };
}

/** Vector index usage (metered-vector-index.ts) as counters. */
export function vectorCounters(usage: VectorUsage): Record<string, number> {
  return {
    [USAGE_COUNTERS.vectorQueries]: usage.queries,
    [USAGE_COUNTERS.vectorsUpserted]: usage.upserted,
    [USAGE_COUNTERS.vectorDimensionsUpserted]: usage.dimensionsUpserted,
    [USAGE_COUNTERS.vectorsRemoved]: usage.removed,
  };
}

/** What the object counted since the benchmark last asked (BenchHooks.usage), and at the end of its last request. */
export interface RequestUsage {
  /** This instance of the object (a new one after every eviction). */
  instance: string;
  sinceRead: Record<string, number>;
  /** The request last finished: its method and `sinceRead` as it stood when its work ended. */
  lastRequest: { name: string; counts: Record<string, number> } | null;
}

export class UsageMeter {
  readonly instance = crypto.randomUUID();
  private pending: Record<string, number> = {};
  private sinceRead: Record<string, number> = {};
  private lastRequest: RequestUsage["lastRequest"] = null;
  private busy = 0;
  private busySince = 0;
  private flushScheduled = false;

  constructor(
    /** Adds counts to the agent's lifetime counters (MetaStore.bump). */
    private readonly flush: (deltas: Record<string, number>) => void,
    private readonly now: () => number = Date.now,
    /** Runs the flush after the answer that made the object idle has gone. */
    private readonly defer: (run: () => void) => void = (run) => void setTimeout(run, 0),
  ) {}

  add(deltas: Readonly<Record<string, number>>): void {
    for (const [name, delta] of Object.entries(deltas)) {
      if (delta === 0) continue;
      this.pending[name] = (this.pending[name] ?? 0) + delta;
      this.sinceRead[name] = (this.sinceRead[name] ?? 0) + delta;
    }
  }

  /** One request into the object (an RPC call, an alarm): counted, and its time is active time. */
  async request<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.add({ [requestCounter(name)]: 1 });
    try {
      return await this.during(work);
    } finally {
      this.lastRequest = { name, counts: { ...this.sinceRead } };
    }
  }

  /**
   * What was counted since the last call (the cold-path benchmark asks after each call it times:
   * the statements and rows of a first call after a wake, constructor included), then starts afresh.
   */
  readRequests(): RequestUsage {
    const out = { instance: this.instance, sinceRead: this.sinceRead, lastRequest: this.lastRequest };
    this.sinceRead = {};
    this.lastRequest = null;
    return out;
  }

  /** Work the object does after a request answered (a queue drain): active time, not a request. */
  track(work: Promise<unknown>): void {
    this.enter();
    const leave = (): void => this.leave();
    work.then(leave, leave);
  }

  /** `counters` (the lifetime ones) with what is not added to them yet, active time so far included. */
  withUnflushed(counters: Readonly<Record<string, number>>): Record<string, number> {
    const out = { ...counters };
    const pending = { ...this.pending };
    if (this.busy > 0) pending[USAGE_COUNTERS.activeMs] = (pending[USAGE_COUNTERS.activeMs] ?? 0) + (this.now() - this.busySince);
    for (const [name, delta] of Object.entries(pending)) out[name] = (out[name] ?? 0) + delta;
    return out;
  }

  private async during<T>(work: () => Promise<T>): Promise<T> {
    this.enter();
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  private enter(): void {
    if (this.busy === 0) this.busySince = this.now();
    this.busy += 1;
  }

  private leave(): void {
    this.busy -= 1;
    if (this.busy > 0) return;
    this.add({ [USAGE_COUNTERS.activeMs]: this.now() - this.busySince });
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.defer(() => {
      this.flushScheduled = false;
      // Busy again meanwhile: the next idle moment flushes.
      if (this.busy > 0) return;
      const deltas = this.pending;
      this.pending = {};
      if (Object.keys(deltas).length > 0) this.flush(deltas);
    });
  }
}
