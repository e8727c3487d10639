/**
 * The Durable Object's own SQLite storage, reporting the rows each statement read and wrote. A
 * SQLite-backed object is billed for rows read and written at D1's prices, so the cost table of
 * docs/deploy.md counts both stores; only the benchmarks turn this on (BENCH_USAGE_COUNTERS,
 * src/agent/usage-meter.ts).
 *
 * A statement runs when `exec()` is called, so its rows written are known then; rows read grow as
 * the cursor is read and are reported when it is read to its end (`toArray()`, `one()`, the last
 * `next()`); a cursor left unread reports the rows read so far. Alarms (`setAlarm`, one row
 * written each) are set elsewhere and not counted here.
 */
import { statementKind } from "./metered-d1";

export interface DoSqlUsage {
  rowsRead: number;
  rowsWritten: number;
  kind: string;
}

export type DoSqlMeter = (usage: DoSqlUsage) => void;

function meteredCursor<T extends Record<string, SqlStorageValue>>(
  cursor: SqlStorageCursor<T>,
  kind: string,
  meter: DoSqlMeter,
): SqlStorageCursor<T> {
  meter({ rowsRead: cursor.rowsRead, rowsWritten: cursor.rowsWritten, kind });
  let reported = cursor.rowsRead;
  const settle = (): void => {
    const more = cursor.rowsRead - reported;
    reported = cursor.rowsRead;
    if (more > 0) meter({ rowsRead: more, rowsWritten: 0, kind });
  };
  return new Proxy(cursor, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "toArray" || prop === "one" || prop === "raw") {
        return (...args: unknown[]) => {
          try {
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          } finally {
            settle();
          }
        };
      }
      if (prop === "next") {
        return () => {
          const step = target.next();
          if (step.done === true) settle();
          return step;
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

/** `storage` whose `sql.exec` reports each statement's rows to `meter`; everything else as it is. */
export function meteredObjectStorage(storage: DurableObjectStorage, meter: DoSqlMeter): DurableObjectStorage {
  const sql = storage.sql;
  const meteredSql = new Proxy(sql, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop === "exec") {
        return <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): SqlStorageCursor<T> =>
          meteredCursor(target.exec<T>(query, ...bindings), statementKind(query), meter);
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === "sql") return meteredSql;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
