/**
 * The stored intents of the write path (write-path.ts): one row per task whose commit has begun
 * and not finished. Almost always empty, so the store remembers when it knows there is none and
 * answers the "anything to redo?" asked before every task without a query.
 */
export class IntentStore {
  /** Task ids with an intent stored; undefined until the table was read once after a wake. */
  private known: Set<string> | undefined;

  constructor(private readonly sql: SqlStorage) {}

  put(taskId: string, intent: string): void {
    this.load().add(taskId);
    this.sql.exec(
      "INSERT INTO intents (task_id, intent) VALUES (?, ?) ON CONFLICT (task_id) DO UPDATE SET intent = excluded.intent",
      taskId,
      intent,
    );
  }

  get(taskId: string): string | undefined {
    if (!this.load().has(taskId)) return undefined;
    return this.sql.exec<{ intent: string }>("SELECT intent FROM intents WHERE task_id = ?", taskId).toArray()[0]?.intent;
  }

  delete(taskId: string): void {
    if (!this.load().has(taskId)) return;
    this.sql.exec("DELETE FROM intents WHERE task_id = ?", taskId);
    this.known?.delete(taskId);
  }

  /** Forgets what it knows (the table may have changed under it: a rolled-back transaction). */
  forget(): void {
    this.known = undefined;
  }

  private load(): Set<string> {
    this.known ??= new Set(
      this.sql
        .exec<{ task_id: string }>("SELECT task_id FROM intents")
        .toArray()
        .map((r) => r.task_id),
    );
    return this.known;
  }
}
