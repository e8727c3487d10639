/**
 * Idempotency keys (docs/design.md, "Robustness promises": a client retry never applies a write twice). A write that carries
 * an `Idempotency-Key` records, in the same object transaction that queues its task, the key, a
 * fingerprint of the request and the ids it was given. A retry with the same key and the same
 * request gets those ids back and queues nothing; the same key with a different request is
 * refused. Records outlive an agent deletion (a retried DELETE must not delete what came after
 * it) and are kept for KEY_TTL_MS; but a write whose result was deleted since (the agent was
 * deleted, or a purge took the memory it wrote) is `gone`: its key answers that, never the
 * result again, and queues nothing (a retry after a deletion must not be told its write is
 * queued, nor get the purged text back).
 */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface KeyRecord {
  fingerprint: string;
  taskIds: string[];
  /** The write was applied and deleted since: nothing to answer but that. */
  gone?: boolean;
}

export class IdempotencyKeys {
  constructor(private readonly sql: SqlStorage) {}

  find(key: string, now: number): KeyRecord | undefined {
    const row = this.sql
      .exec<{ fingerprint: string; task_ids: string; gone: number }>(
        "SELECT fingerprint, task_ids, gone FROM idempotency WHERE key = ? AND created_at > ?",
        key,
        now - KEY_TTL_MS,
      )
      .toArray()[0];
    if (!row) return undefined;
    const ids: unknown = JSON.parse(row.task_ids);
    return {
      fingerprint: row.fingerprint,
      taskIds: Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [],
      gone: row.gone === 1,
    };
  }

  /** The writes of `taskIds` were deleted (a purge took what they wrote): their keys are gone. */
  forgetTasks(taskIds: readonly string[]): void {
    if (taskIds.length === 0) return;
    this.sql.exec(
      `UPDATE idempotency SET gone = 1, task_ids = '[]'
       WHERE EXISTS (SELECT 1 FROM json_each(idempotency.task_ids) t WHERE t.value IN (SELECT value FROM json_each(?)))`,
      JSON.stringify(taskIds),
    );
  }

  /**
   * The agent was deleted by task `deletion`: every key whose tasks went with it is gone; the
   * deletion's own key, and keys of writes that arrived after it (their tasks are still queued),
   * stay.
   */
  forgetDeleted(deletion: string): void {
    this.sql.exec(
      `UPDATE idempotency SET gone = 1, task_ids = '[]'
       WHERE gone = 0
         AND NOT EXISTS (SELECT 1 FROM json_each(idempotency.task_ids) t WHERE t.value = ?)
         AND NOT EXISTS (SELECT 1 FROM json_each(idempotency.task_ids) t JOIN tasks ON tasks.id = t.value)`,
      deletion,
    );
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
