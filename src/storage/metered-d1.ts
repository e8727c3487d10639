/**
 * A D1 binding that reports what each statement cost: D1 bills rows read and rows written, which
 * every result carries in `meta` (also locally). Only the benchmarks turn it on
 * (BENCH_USAGE_COUNTERS, src/agent/usage-meter.ts): the cost table of docs/deploy.md multiplies
 * these counts by D1's prices, and its rows written are also counted per kind of statement
 * (`statementKind`), so the table can say where they go.
 *
 * `first()` and `raw()` drop the meta, so here they are served from `all()`: `first()` exactly,
 * `raw()` by reading each row's columns in order, which is the same rows unless two columns share
 * a name (a join) or a column's name is an integer (then the binding's `raw()` answers too). A
 * statement that names a join keeps the binding's own `raw()` and is counted as unmetered instead,
 * so a count that misses rows says so. `exec()` reports no rows either and is counted the same way.
 *
 * Round trips: each statement run on its own and each batch is one round trip to the database (in
 * production, a network round trip to the database's region). One that starts while no other is
 * in flight is *sequential*: the count of those is the number of round trips a caller waits for
 * one after the other. A `RoundTrips` made with a delay (the cold-path benchmark, BENCH_D1_RTT_MS)
 * adds that many milliseconds before every round trip, a simulated network between the object and D1.
 */
export interface D1Usage {
  rowsRead: number;
  rowsWritten: number;
  /** Statements whose rows could not be counted. */
  unmetered: number;
  /** Round trips this report opens (1 for the first statement of a run or a batch, else 0). */
  roundTrips?: number;
  /** Of those, the ones that started while no other round trip was in flight. */
  sequentialRoundTrips?: number;
  /** What kind of statement the rows belong to (statementKind); absent for exec(). */
  kind?: string;
}

export type D1Meter = (usage: D1Usage) => void;

export interface MeterOptions {
  /**
   * Where round trips are counted and delayed: share one between the bindings of one caller, so a
   * round trip to one database that overlaps one to another is not counted as sequential.
   */
  roundTrips?: RoundTrips;
}

const JOIN = /\bjoin\b/i;
const INTEGER_KEY = /^(0|[1-9][0-9]*)$/;

/**
 * A short name for what a statement does, e.g. "insert links", "upsert links", "update
 * nodes.content", "delete links by key": the verb, the table and (for an update) the first column
 * it sets, plus the shape of a delete's condition. Only for reporting: nothing depends on it.
 */
export function statementKind(sql: string): string {
  const text = sql.replace(/["`]/g, "").replace(/\s+/g, " ").trim().toLowerCase();
  const insert = /\binsert (or replace |or ignore )?into (\w+)/.exec(text);
  if (insert) {
    const table = insert[2] ?? "?";
    if (/\bon conflict\b[^;]*\bdo update\b/.test(text)) return `upsert ${table}`;
    return `${insert[1] === "or replace " ? "replace" : "insert"} ${table}`;
  }
  const update = /\bupdate (\w+) set (\w+)/.exec(text);
  if (update) return `update ${update[1] ?? "?"}.${update[2] ?? "?"}`;
  const del = /\bdelete from (\w+)(?: where (.*))?/.exec(text);
  if (del) {
    const table = del[1] ?? "?";
    const where = del[2] ?? "";
    const shape = /\(source, target, relation\) in/.test(where)
      ? " by key"
      : /\bsource in\b/.test(where)
        ? " by source"
        : /\b(id|rowid) in\b/.test(where)
          ? " by id"
          : /^agent = \?\s*$|^rowid between \? and \?\s*$/.test(where)
            ? " all of the agent"
            : "";
    return `delete ${table}${shape}`;
  }
  if (/^(with\b.*?\)\s*)?select\b/.test(text) || text.startsWith("select")) return "select";
  return text.split(" ", 1)[0] ?? "?";
}

function record(
  meter: D1Meter,
  meta: { rows_read?: number; rows_written?: number } | undefined,
  kind: string | undefined,
  trip: { roundTrips: number; sequentialRoundTrips: number },
): void {
  meter({
    rowsRead: meta?.rows_read ?? 0,
    rowsWritten: meta?.rows_written ?? 0,
    unmetered: meta ? 0 : 1,
    ...trip,
    ...(kind === undefined ? {} : { kind }),
  });
}

const NO_TRIP = { roundTrips: 0, sequentialRoundTrips: 0 };

/** Round trips in flight, shared by every statement of the bindings wrapped with it. */
export class RoundTrips {
  private inFlight = 0;

  /** `delayMs`: milliseconds added before every round trip (a simulated network; benchmark only). */
  constructor(private readonly delayMs = 0) {}

  /** Runs `call` as one round trip (after the simulated delay); says whether it was sequential. */
  async run<T>(call: () => Promise<T>): Promise<{ value: T; trip: { roundTrips: number; sequentialRoundTrips: number } }> {
    const trip = { roundTrips: 1, sequentialRoundTrips: this.inFlight === 0 ? 1 : 0 };
    this.inFlight += 1;
    try {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      return { value: await call(), trip };
    } finally {
      this.inFlight -= 1;
    }
  }
}

class MeteredStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly sql: string,
    private readonly meter: D1Meter,
    private readonly trips: RoundTrips,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new MeteredStatement(this.inner.bind(...values), this.sql, this.meter, this.trips);
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  async first(colName?: string): Promise<unknown> {
    const { results } = await this.all();
    const row = results[0];
    if (row === undefined) return null;
    if (colName === undefined) return row;
    if (!(colName in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${colName})`);
    return row[colName];
  }

  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const { value, trip } = await this.trips.run(() => this.inner.run<T>());
    record(this.meter, value.meta, statementKind(this.sql), trip);
    return value;
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const { value, trip } = await this.trips.run(() => this.inner.all<T>());
    record(this.meter, value.meta, statementKind(this.sql), trip);
    return value;
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  async raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    if (JOIN.test(this.sql)) {
      const { value, trip } = await this.trips.run(() =>
        options?.columnNames === true ? this.inner.raw({ columnNames: true }) : this.inner.raw(),
      );
      record(this.meter, undefined, statementKind(this.sql), trip);
      return value;
    }
    const { results } = await this.all();
    const first = results[0];
    // JavaScript puts integer-like keys first ("SELECT 1, a"): the columns' order is lost, so the
    // binding answers (its rows were counted once, by the all() above; its round trip is not
    // counted again: it only stands in for the answer the all() already had).
    if (first !== undefined && Object.keys(first).length > 1 && Object.keys(first).some((k) => INTEGER_KEY.test(k))) {
      return options?.columnNames === true ? this.inner.raw({ columnNames: true }) : this.inner.raw();
    }
    const rows = results.map((row) => Object.values(row));
    return options?.columnNames === true && first !== undefined ? [Object.keys(first), ...rows] : rows;
  }
}

class MeteredD1 implements D1Database {
  private readonly trips: RoundTrips;

  constructor(
    private readonly inner: D1Database,
    private readonly meter: D1Meter,
    options: MeterOptions,
  ) {
    this.trips = options.roundTrips ?? new RoundTrips();
  }

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.inner.prepare(query), query, this.meter, this.trips);
  }

  async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const { value: results, trip } = await this.trips.run(() =>
      this.inner.batch<T>(statements.map((s) => (s instanceof MeteredStatement ? s.inner : s))),
    );
    results.forEach((result, i) => {
      const s = statements[i];
      record(this.meter, result.meta, s instanceof MeteredStatement ? statementKind(s.sql) : undefined, i === 0 ? trip : NO_TRIP);
    });
    return results;
  }

  async exec(query: string): Promise<D1ExecResult> {
    const { value: result, trip } = await this.trips.run(() => this.inner.exec(query));
    this.meter({ rowsRead: 0, rowsWritten: 0, unmetered: result.count, ...trip });
    return result;
  }

  /** Not metered: nothing in the project opens a session. */
  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return this.inner.withSession(constraintOrBookmark);
  }

  dump(): Promise<ArrayBuffer> {
    return this.inner.dump();
  }
}

/** `d1` with every statement's rows reported to `meter` (and each round trip delayed by `options.roundTrips`' delay). */
export function meteredD1(d1: D1Database, meter: D1Meter, options: MeterOptions = {}): D1Database {
  return new MeteredD1(d1, meter, options);
}
