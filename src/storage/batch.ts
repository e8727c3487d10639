/**
 * Atomic write batches. A D1 batch runs its statements in one transaction: a remember's nodes,
 * links and focus pins commit together or not at all. drizzle's own batch cannot carry raw `sql`
 * statements on D1, so statements are compiled to SQL text and parameters here and sent with
 * D1's batch API directly.
 */
import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";

export interface Statement {
  sql: string;
  params: unknown[];
}

const dialect = new SQLiteAsyncDialect();

/** A raw `sql` template or a drizzle query builder (anything with toSQL()). */
export function statement(query: SQL | { toSQL(): { sql: string; params: unknown[] } }): Statement {
  const built = "toSQL" in query ? query.toSQL() : dialect.sqlToQuery(query);
  return { sql: built.sql, params: built.params };
}

export async function runBatch(d1: D1Database, statements: readonly Statement[]): Promise<void> {
  if (statements.length === 0) return;
  await d1.batch(statements.map((s) => d1.prepare(s.sql).bind(...s.params)));
}
