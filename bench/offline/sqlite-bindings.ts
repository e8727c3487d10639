/**
 * The two storage bindings an agent's runtime reads, over in-memory SQLite in this process
 * (node:sqlite): the Durable Object's storage (its `sql` API and transactions; alarms fire as
 * timers) and a D1 database (prepare/bind/all/raw/run/batch, which drizzle's D1 driver uses).
 * Both run the statements the object and the repositories send, unchanged, so the offline probe
 * drives the real operations (src/operations) through the real stores instead of a copy of them.
 * Only what the runtime calls is provided: any other member of either binding throws when read.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";

type Row = Record<string, SqlStorageValue>;

/** What a binding value becomes for node:sqlite (it takes no booleans and no ArrayBuffers). */
function input(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typeof value === "number" || typeof value === "string" || typeof value === "bigint" || value instanceof Uint8Array) return value;
  throw new TypeError(`cannot bind a ${typeof value}`);
}

/** A blob read back as the Durable Object's SQL API answers it (an ArrayBuffer). */
function objectValue(value: unknown): SqlStorageValue {
  if (value instanceof Uint8Array) {
    const out = new ArrayBuffer(value.byteLength);
    new Uint8Array(out).set(value);
    return out;
  }
  if (value === null || typeof value === "number" || typeof value === "string") return value;
  throw new TypeError(`unexpected column value ${typeof value}`);
}

/** An object whose members outside `allowed` throw: the runtime must not need more than is provided. */
function only<T extends object>(name: string, target: T, allowed: readonly (keyof T)[]): T {
  return new Proxy(target, {
    get(object, prop, receiver) {
      if (typeof prop === "string" && !(allowed as readonly PropertyKey[]).includes(prop) && prop !== "then") {
        throw new Error(`${name}.${prop} is not available offline`);
      }
      return Reflect.get(object, prop, receiver);
    },
  });
}

class StatementCache {
  private readonly statements = new Map<string, StatementSync>();
  constructor(readonly db: DatabaseSync) {}

  get(query: string): StatementSync {
    let statement = this.statements.get(query);
    if (!statement) {
      statement = this.db.prepare(query);
      this.statements.set(query, statement);
    }
    return statement;
  }
}

/** The Durable Object's SQL: statements run as they are sent; a string of several runs whole. */
function sqlStorage(cache: StatementCache): SqlStorage {
  const exec = (query: string, ...bindings: unknown[]) => {
    let rows: Row[] = [];
    let written = 0;
    let statement: StatementSync | undefined;
    try {
      statement = cache.get(query);
    } catch (err) {
      // A schema step: several statements in one string (node:sqlite prepares one at a time).
      if (bindings.length > 0) throw err;
    }
    if (statement && statement.columns().length > 0) {
      rows = statement.all(...bindings.map(input)).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, objectValue(v)])));
    } else if (statement && bindings.length > 0) {
      written = Number(statement.run(...bindings.map(input)).changes);
    } else {
      const before = cache.db.prepare("SELECT total_changes() AS n").get()?.n;
      cache.db.exec(query);
      written = Number(cache.db.prepare("SELECT total_changes() AS n").get()?.n) - Number(before);
    }
    let position = 0;
    const cursor = {
      rowsRead: rows.length,
      rowsWritten: written,
      columnNames: rows[0] ? Object.keys(rows[0]) : [],
      toArray: () => rows.slice(position),
      one: () => {
        if (rows.length !== 1) throw new Error(`expected exactly one row, got ${rows.length}`);
        return rows[0];
      },
      next: () => (position < rows.length ? { done: false, value: rows[position++] } : { done: true, value: undefined }),
      raw: () =>
        rows
          .slice(position)
          .map((r) => Object.values(r))
          [Symbol.iterator](),
      [Symbol.iterator]: () => rows.slice(position)[Symbol.iterator](),
    };
    // Structurally the cursor the runtime's SqlStorage answers; members it never reads are absent.
    return cursor as unknown as SqlStorageCursor<Row>;
  };
  return only("sql", { exec, databaseSize: 0 } as unknown as SqlStorage, ["exec"]);
}

export interface OfflineObjectStorage {
  readonly storage: DurableObjectStorage;
  /** The object's state as its queue runner uses it: the storage, and waitUntil. */
  readonly state: DurableObjectState;
  /** Called when the alarm the object set comes due (the runner's backstop and hand-overs). */
  onAlarm(handler: () => Promise<void>): void;
  /** Stops the pending alarm timer, so the process can exit. */
  close(): void;
}

/** A Durable Object's storage in memory: SQL, synchronous transactions, one alarm. */
export function objectStorage(): OfflineObjectStorage {
  const cache = new StatementCache(new DatabaseSync(":memory:"));
  let alarm: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let handler: (() => Promise<void>) | undefined;
  let depth = 0;
  const setAlarm = async (at: number | Date) => {
    alarm = typeof at === "number" ? at : at.getTime();
    clearTimeout(timer);
    timer = setTimeout(
      () => {
        alarm = null;
        void handler?.();
      },
      Math.max(0, alarm - Date.now()),
    );
  };
  const target = {
    sql: sqlStorage(cache),
    transactionSync<T>(fn: () => T): T {
      // Nested calls join the outer transaction, as the object's do.
      const name = `t${depth}`;
      cache.db.exec(depth === 0 ? "BEGIN" : `SAVEPOINT ${name}`);
      depth += 1;
      try {
        const out = fn();
        depth -= 1;
        cache.db.exec(depth === 0 ? "COMMIT" : `RELEASE ${name}`);
        return out;
      } catch (err) {
        depth -= 1;
        cache.db.exec(depth === 0 ? "ROLLBACK" : `ROLLBACK TO ${name}; RELEASE ${name}`);
        throw err;
      }
    },
    getAlarm: async () => alarm,
    setAlarm,
    deleteAlarm: async () => {
      alarm = null;
      clearTimeout(timer);
    },
    sync: async () => {},
  };
  const storage = only("storage", target as unknown as DurableObjectStorage, [
    "sql",
    "transactionSync",
    "getAlarm",
    "setAlarm",
    "deleteAlarm",
    "sync",
  ]);
  return {
    storage,
    state: only("state", { storage, waitUntil: () => {} } as unknown as DurableObjectState, ["storage", "waitUntil"]),
    onAlarm: (h) => {
      handler = h;
    },
    close: () => clearTimeout(timer),
  };
}

/** A D1 database in memory, its migrations applied. */
export function d1Database(migrations: readonly string[]): D1Database {
  const cache = new StatementCache(new DatabaseSync(":memory:"));
  for (const m of migrations) cache.db.exec(m);
  const meta = (changes = 0, lastRowId = 0) => ({
    duration: 0,
    size_after: 0,
    rows_read: 0,
    rows_written: changes,
    last_row_id: lastRowId,
    changed_db: changes > 0,
    changes,
  });
  class Prepared {
    constructor(
      readonly query: string,
      readonly values: SQLInputValue[] = [],
    ) {}
    bind(...values: unknown[]): Prepared {
      return new Prepared(this.query, values.map(input));
    }
    private statement(arrays: boolean): StatementSync {
      const s = cache.get(this.query);
      s.setReturnArrays(arrays);
      return s;
    }
    allSync() {
      const s = this.statement(false);
      if (s.columns().length === 0) return { results: [], success: true, meta: meta(Number(s.run(...this.values).changes)) };
      return { results: s.all(...this.values), success: true, meta: meta() };
    }
    async all() {
      return this.allSync();
    }
    async raw(options?: { columnNames?: boolean }) {
      const s = this.statement(true);
      const rows = s.columns().length === 0 ? (s.run(...this.values), []) : s.all(...this.values);
      return options?.columnNames ? [s.columns().map((c) => c.name), ...rows] : rows;
    }
    async first(column?: string) {
      const row = this.statement(false).get(...this.values);
      if (row === undefined) return null;
      return column === undefined ? row : (row[column] ?? null);
    }
    async run() {
      const result = this.statement(false).run(...this.values);
      return { results: [], success: true, meta: meta(Number(result.changes), Number(result.lastInsertRowid)) };
    }
  }
  const target = {
    prepare: (query: string) => new Prepared(query),
    async batch(statements: readonly Prepared[]) {
      // One transaction, as D1's batch: all or nothing (synchronous, so nothing else runs inside it).
      cache.db.exec("BEGIN");
      try {
        const out = [];
        for (const s of statements) out.push(s.allSync());
        cache.db.exec("COMMIT");
        return out;
      } catch (err) {
        cache.db.exec("ROLLBACK");
        throw err;
      }
    },
    async exec(query: string) {
      cache.db.exec(query);
      return { count: 1, duration: 0 };
    },
  };
  return only("D1", target as unknown as D1Database, ["prepare", "batch", "exec"]);
}
