/**
 * A D1 binding that reports what each statement cost: D1 bills rows read and rows written, which
 * every result carries in `meta` (also locally). Only the production-shaped benchmark turns it on
 * (BENCH_USAGE_COUNTERS, src/agent/usage-meter.ts): the cost table of docs/deploy.md multiplies
 * these counts by D1's prices.
 *
 * `first()` and `raw()` drop the meta, so here they are served from `all()`: `first()` exactly,
 * `raw()` by reading each row's columns in order, which is the same rows unless two columns share
 * a name (a join) or a column's name is an integer (then the binding's `raw()` answers too). A
 * statement that names a join keeps the binding's own `raw()` and is counted as unmetered instead,
 * so a count that misses rows says so. `exec()` reports no rows either and is counted the same way.
 */
export interface D1Usage {
  rowsRead: number;
  rowsWritten: number;
  /** Statements whose rows could not be counted. */
  unmetered: number;
}

export type D1Meter = (usage: D1Usage) => void;

const JOIN = /\bjoin\b/i;
const INTEGER_KEY = /^(0|[1-9][0-9]*)$/;

function record(meter: D1Meter, meta: { rows_read?: number; rows_written?: number } | undefined): void {
  meter({ rowsRead: meta?.rows_read ?? 0, rowsWritten: meta?.rows_written ?? 0, unmetered: meta ? 0 : 1 });
}

class MeteredStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly sql: string,
    private readonly meter: D1Meter,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new MeteredStatement(this.inner.bind(...values), this.sql, this.meter);
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
    const result = await this.inner.run<T>();
    record(this.meter, result.meta);
    return result;
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const result = await this.inner.all<T>();
    record(this.meter, result.meta);
    return result;
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  async raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    if (JOIN.test(this.sql)) {
      record(this.meter, undefined);
      return options?.columnNames === true ? this.inner.raw({ columnNames: true }) : this.inner.raw();
    }
    const { results } = await this.all();
    const first = results[0];
    // JavaScript puts integer-like keys first ("SELECT 1, a"): the columns' order is lost, so the
    // binding answers (its rows were counted once, by the all() above).
    if (first !== undefined && Object.keys(first).length > 1 && Object.keys(first).some((k) => INTEGER_KEY.test(k))) {
      return options?.columnNames === true ? this.inner.raw({ columnNames: true }) : this.inner.raw();
    }
    const rows = results.map((row) => Object.values(row));
    return options?.columnNames === true && first !== undefined ? [Object.keys(first), ...rows] : rows;
  }
}

class MeteredD1 implements D1Database {
  constructor(
    private readonly inner: D1Database,
    private readonly meter: D1Meter,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.inner.prepare(query), query, this.meter);
  }

  async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const results = await this.inner.batch<T>(statements.map((s) => (s instanceof MeteredStatement ? s.inner : s)));
    for (const result of results) record(this.meter, result.meta);
    return results;
  }

  async exec(query: string): Promise<D1ExecResult> {
    const result = await this.inner.exec(query);
    this.meter({ rowsRead: 0, rowsWritten: 0, unmetered: result.count });
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

/** `d1` with every statement's rows reported to `meter`. */
export function meteredD1(d1: D1Database, meter: D1Meter): D1Database {
  return new MeteredD1(d1, meter);
}
