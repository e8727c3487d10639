/**
 * A D1 database that enforces D1's query time limit, wrapped around a real (local) one. D1 stops a
 * query after 30 seconds (D1 limits page: "Maximum SQL query duration"); a local database answers
 * in-process, so time is simulated from the work each statement reports in its metadata: the rows
 * it read and wrote (index entries included), at `rowsPerSecond`. A statement past the limit
 * fails with a D1-style error. The local engine has already run it by then (no rollback is
 * simulated), so a test treats any such error as a failure, not as a state to continue from.
 *
 * Only statements that report metadata are timed: batches and `run()`/`all()` (what the write path
 * and the deletion use); `raw()`/`first()` carry no metadata and pass through.
 */

export interface TimedStatement {
  sql: string;
  rows: number;
  ms: number;
}

export interface LimitedD1Options {
  /** Rows read or written per second of simulated D1 time. */
  rowsPerSecond: number;
  /** D1's limit per query. */
  limitMs?: number;
}

const Meta = (value: unknown): { rows_read: number; rows_written: number } | undefined => {
  if (typeof value !== "object" || value === null) return undefined;
  const meta: unknown = Reflect.get(value, "meta");
  if (typeof meta !== "object" || meta === null) return undefined;
  const read: unknown = Reflect.get(meta, "rows_read");
  const written: unknown = Reflect.get(meta, "rows_written");
  return typeof read === "number" && typeof written === "number" ? { rows_read: read, rows_written: written } : undefined;
};

export class LimitedD1 {
  readonly statements: TimedStatement[] = [];
  readonly binding: D1Database;
  private readonly inner = new WeakMap<object, D1PreparedStatement>();

  constructor(
    real: D1Database,
    private readonly options: LimitedD1Options,
  ) {
    const wrapStatement = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
      const proxy = new Proxy(statement, {
        get: (target, prop) => {
          if (prop === "bind") return (...values: unknown[]) => wrapStatement(target.bind(...values), sql);
          if (prop === "run" || prop === "all") {
            return async () => {
              const result = prop === "run" ? await target.run() : await target.all();
              this.time(sql, result);
              return result;
            };
          }
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      this.inner.set(proxy, statement);
      return proxy;
    };
    this.binding = new Proxy(real, {
      get: (target, prop) => {
        if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), sql);
        if (prop === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            const results = await target.batch(statements.map((s) => this.inner.get(s) ?? s));
            results.forEach((result, i) => this.time(`batch[${i}]`, result));
            return results;
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  /** The longest simulated statement so far, in ms. */
  get longestMs(): number {
    return Math.max(0, ...this.statements.map((s) => s.ms));
  }

  private time(sql: string, result: unknown): void {
    const meta = Meta(result);
    if (!meta) return;
    const rows = meta.rows_read + meta.rows_written;
    const ms = (rows / this.options.rowsPerSecond) * 1000;
    this.statements.push({ sql, rows, ms });
    const limit = this.options.limitMs ?? 30_000;
    if (ms > limit) throw new Error(`D1_ERROR: the query ran past D1's ${limit} ms limit (simulated: ${rows} rows, ${Math.round(ms)} ms)`);
  }
}
