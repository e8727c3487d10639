/**
 * Idempotency keys (docs/design.md §15: a client retry never applies a write twice). A write that carries
 * an `Idempotency-Key` records, in the same object transaction that queues its task, the key, a
 * fingerprint of the request and the ids it was given. A retry with the same key and the same
 * request gets those ids back and queues nothing; the same key with a different request is
 * refused. Records outlive an agent deletion (a retried DELETE must not delete what came after
 * it) and are kept for KEY_TTL_MS.
 */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface KeyRecord {
  fingerprint: string;
  taskIds: string[];
}

export class IdempotencyKeys {
  constructor(private readonly sql: SqlStorage) {}

  find(key: string, now: number): KeyRecord | undefined {
    const row = this.sql
      .exec<{ fingerprint: string; task_ids: string }>(
        "SELECT fingerprint, task_ids FROM idempotency WHERE key = ? AND created_at > ?",
        key,
        now - KEY_TTL_MS,
      )
      .toArray()[0];
    if (!row) return undefined;
    const ids: unknown = JSON.parse(row.task_ids);
    return { fingerprint: row.fingerprint, taskIds: Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [] };
  }

  record(key: string, record: KeyRecord, now: number): void {
    this.sql.exec("DELETE FROM idempotency WHERE created_at <= ?", now - KEY_TTL_MS);
    this.sql.exec(
      `INSERT INTO idempotency (key, fingerprint, task_ids, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, task_ids = excluded.task_ids, created_at = excluded.created_at`,
      key,
      record.fingerprint,
      JSON.stringify(record.taskIds),
      now,
    );
  }
}

/** A request's fingerprint: SHA-256 of its kind, payload and repetition count. */
export async function fingerprint(kind: string, payload: unknown, repeat: number): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify([kind, payload ?? null, repeat]));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}
