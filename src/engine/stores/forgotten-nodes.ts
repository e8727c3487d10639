/**
 * Memories forgotten without a purge (src/engine/stores/do-schema.ts `forgotten`): a deleted
 * node's row is gone from D1, but a purge of it later (docs/design.md, "Purge") must still find the
 * task that wrote it, to take that task's result and retire its Idempotency-Key, and the message
 * ids it came from, to release them. Nothing of its text is kept. A record is useful while its
 * task is kept (FINISHED_TASKS_KEPT): records of pruned tasks go with the queue's prune.
 */
import type { ForgottenNode } from "../../memory/write-ops";

export class ForgottenNodes {
  constructor(private readonly sql: SqlStorage) {}

  record(nodes: readonly ForgottenNode[]): void {
    if (nodes.length === 0) return;
    this.sql.exec(
      `INSERT INTO forgotten (node_id, task_id, message_ids)
       SELECT json_extract(value, '$.id'), json_extract(value, '$.taskId'), json_extract(value, '$.messageIds') FROM json_each(?)
       WHERE true ON CONFLICT (node_id) DO UPDATE SET task_id = excluded.task_id, message_ids = excluded.message_ids`,
      JSON.stringify(nodes.map((n) => ({ ...n, messageIds: JSON.stringify(n.messageIds) }))),
    );
  }

  /** The records of `ids` that exist. */
  get(ids: readonly number[]): ForgottenNode[] {
    if (ids.length === 0) return [];
    return this.sql
      .exec<{ node_id: number; task_id: string | null; message_ids: string }>(
        "SELECT node_id, task_id, message_ids FROM forgotten WHERE node_id IN (SELECT value FROM json_each(?)) ORDER BY node_id",
        JSON.stringify(ids),
      )
      .toArray()
      .map((r) => ({ id: r.node_id, taskId: r.task_id, messageIds: stringArray(r.message_ids) }));
  }

  drop(ids: readonly number[]): void {
    if (ids.length === 0) return;
    this.sql.exec("DELETE FROM forgotten WHERE node_id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
  }

  /** Records whose task is no longer kept (nothing of it left to take). */
  pruneOrphans(): void {
    this.sql.exec("DELETE FROM forgotten WHERE task_id IS NULL OR task_id NOT IN (SELECT id FROM tasks)");
  }

  clear(): void {
    this.sql.exec("DELETE FROM forgotten");
  }
}

function stringArray(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : [];
}
