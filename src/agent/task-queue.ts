/**
 * The agent's durable FIFO task queue: a table in the Durable Object's SQLite. Foreground tasks
 * (remember, recall, edits) run strictly one at a time in arrival order; background tasks
 * (compression cycles) run only while no foreground task is waiting. A task interrupted by
 * eviction is found `running` on wake and re-queued in place; its checkpoint makes the re-run
 * idempotent. Ephemeral tasks (recall) have a caller waiting in memory: after eviction nobody
 * waits for them any more, so they are dropped on wake.
 */
import { FINISHED_TASKS_KEPT } from "../config/limits";

export type TaskStatus = "queued" | "running" | "done" | "failed";
export type TaskKind = "remember" | "recall" | "search" | "compress" | "index" | "delete";

export interface TaskRecord {
  seq: number;
  id: string;
  kind: TaskKind;
  payload: string;
  status: TaskStatus;
  background: boolean;
  ephemeral: boolean;
  attempts: number;
  notBefore: number;
  error: string | null;
  result: string | null;
  checkpoint: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

interface TaskRow extends Record<string, SqlStorageValue> {
  seq: number;
  id: string;
  kind: string;
  payload: string;
  status: string;
  background: number;
  ephemeral: number;
  attempts: number;
  not_before: number;
  error: string | null;
  result: string | null;
  checkpoint: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

const KINDS: readonly TaskKind[] = ["remember", "recall", "search", "compress", "index", "delete"];
const STATUSES: readonly TaskStatus[] = ["queued", "running", "done", "failed"];

export interface NewTask {
  id: string;
  kind: TaskKind;
  payload: unknown;
  background?: boolean;
  ephemeral?: boolean;
  now: number;
}

export class TaskQueue {
  /**
   * False only when no foreground task can be queued: every way a task becomes 'queued' goes
   * through this class and sets it. A compression scan asks foregroundWaiting() between any two
   * nodes, so at 10k nodes this spares ~10k queries per cycle.
   */
  private foregroundMaybeQueued = true;

  constructor(private readonly sql: SqlStorage) {}

  enqueue(task: NewTask): TaskRecord {
    if (!task.background) this.foregroundMaybeQueued = true;
    const row = this.sql
      .exec<TaskRow>(
        `INSERT INTO tasks (id, kind, payload, status, background, ephemeral, created_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?) RETURNING *`,
        task.id,
        task.kind,
        JSON.stringify(task.payload ?? null),
        task.background ? 1 : 0,
        task.ephemeral ? 1 : 0,
        task.now,
      )
      .one();
    return toRecord(row);
  }

  /**
   * The task to run now: the oldest queued foreground task (even if it must wait for a retry
   * backoff: later tasks never overtake it), else the oldest queued background task.
   */
  next(now: number): TaskRecord | undefined {
    const row =
      this.first("SELECT * FROM tasks WHERE status = 'queued' AND background = 0 ORDER BY seq LIMIT 1") ??
      this.first("SELECT * FROM tasks WHERE status = 'queued' AND background = 1 ORDER BY seq LIMIT 1");
    if (!row || row.not_before > now) return undefined;
    return toRecord(row);
  }

  /** True when a foreground task is queued: a background task should yield. */
  foregroundWaiting(): boolean {
    if (!this.foregroundMaybeQueued) return false;
    const waiting = this.first("SELECT seq FROM tasks WHERE status = 'queued' AND background = 0 LIMIT 1") !== undefined;
    if (!waiting) this.foregroundMaybeQueued = false;
    return waiting;
  }

  /**
   * Earliest moment a durable queued task may run, or null when there is none: what the alarm and
   * the cron's registry track. Ephemeral tasks (recall, search) are left out: their caller is
   * waiting in this instance and they are dropped on a wake, so arming an alarm and writing the
   * D1 registry twice for every read would be pure cost.
   */
  earliestDue(): number | null {
    const row = this.sql
      .exec<{ due: number | null }>("SELECT min(not_before) AS due FROM tasks WHERE status IN ('queued', 'running') AND ephemeral = 0")
      .one();
    return row.due;
  }

  /**
   * Client work waiting (remembers, deletions): what the queue limit bounds. Compression cycles and
   * index retries are the agent's own background work and never make a client's write bounce.
   */
  queuedForeground(): number {
    return this.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM tasks WHERE status = 'queued' AND ephemeral = 0 AND background = 0")
      .one().n;
  }

  get(id: string): TaskRecord | undefined {
    const row = this.first("SELECT * FROM tasks WHERE id = ?", id);
    return row ? toRecord(row) : undefined;
  }

  markRunning(id: string, now: number): void {
    this.sql.exec(
      "UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, ?) WHERE id = ?",
      now,
      id,
    );
  }

  saveCheckpoint(id: string, checkpoint: unknown): void {
    this.sql.exec("UPDATE tasks SET checkpoint = ? WHERE id = ?", JSON.stringify(checkpoint), id);
  }

  complete(id: string, result: unknown, now: number): void {
    this.sql.exec(
      "UPDATE tasks SET status = 'done', result = ?, error = NULL, checkpoint = NULL, payload = 'null', finished_at = ? WHERE id = ?",
      JSON.stringify(result ?? null),
      now,
      id,
    );
  }

  fail(id: string, error: string, now: number): void {
    this.sql.exec("UPDATE tasks SET status = 'failed', error = ?, finished_at = ? WHERE id = ?", error, now, id);
  }

  /** Back to the queue, in place, not before `notBefore` (retry backoff). */
  retryLater(id: string, error: string, notBefore: number): void {
    this.foregroundMaybeQueued = true;
    this.sql.exec("UPDATE tasks SET status = 'queued', error = ?, not_before = ? WHERE id = ?", error, notBefore, id);
  }

  /**
   * A background task that yielded goes back to the queue in place, keeping its checkpoint; the
   * slice does not count as a failed attempt.
   */
  yieldInPlace(id: string): void {
    this.foregroundMaybeQueued = true;
    this.sql.exec("UPDATE tasks SET status = 'queued', attempts = max(attempts - 1, 0), not_before = 0 WHERE id = ?", id);
  }

  /**
   * Marks up to `limit` compression cycles queued after `leader` as done, merged into it (one pass
   * runs them all: src/agent/compress-task.ts). Returns how many were merged.
   */
  absorbQueuedCompressions(leader: TaskRecord, limit: number, now: number): number {
    if (limit <= 0) return 0;
    const seqs = this.sql
      .exec<{ seq: number }>(
        "SELECT seq FROM tasks WHERE status = 'queued' AND kind = 'compress' AND seq > ? AND not_before <= ? ORDER BY seq LIMIT ?",
        leader.seq,
        now,
        limit,
      )
      .toArray()
      .map((r) => r.seq);
    if (seqs.length === 0) return 0;
    this.sql.exec(
      `UPDATE tasks SET status = 'done', result = ?, payload = 'null', started_at = ?, finished_at = ?
       WHERE seq IN (SELECT value FROM json_each(?))`,
      JSON.stringify({ merged_into: leader.id }),
      now,
      now,
      JSON.stringify(seqs),
    );
    return seqs.length;
  }

  remove(id: string): void {
    this.sql.exec("DELETE FROM tasks WHERE id = ?", id);
  }

  /** On wake: interrupted tasks are re-queued in place; orphaned ephemeral tasks are dropped. */
  recoverAfterWake(): { requeued: number; dropped: number } {
    this.foregroundMaybeQueued = true;
    const dropped = this.sql.exec("DELETE FROM tasks WHERE ephemeral = 1 AND status IN ('queued', 'running')").rowsWritten;
    const requeued = this.sql.exec("UPDATE tasks SET status = 'queued' WHERE status = 'running'").rowsWritten;
    return { requeued, dropped };
  }

  /** Tasks queued or running before `seq` (the position of a new task). */
  ahead(seq: number): number {
    return this.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM tasks WHERE seq < ? AND status IN ('queued', 'running') AND background = 0", seq)
      .one().n;
  }

  counts(): Record<TaskStatus, number> {
    const counts: Record<TaskStatus, number> = { queued: 0, running: 0, done: 0, failed: 0 };
    for (const row of this.sql.exec<{ status: string; n: number }>("SELECT status, count(*) AS n FROM tasks GROUP BY status")) {
      const status = STATUSES.find((s) => s === row.status);
      if (status) counts[status] = row.n;
    }
    return counts;
  }

  /** Keeps the newest FINISHED_TASKS_KEPT finished tasks. */
  prune(): void {
    this.sql.exec(
      `DELETE FROM tasks WHERE status IN ('done', 'failed') AND seq <= (
         SELECT seq FROM tasks WHERE status IN ('done', 'failed') ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
      FINISHED_TASKS_KEPT,
    );
  }

  /** Removes every task up to and including `seq` (agent deletion keeps what arrived after it). */
  removeUpTo(seq: number): void {
    this.sql.exec("DELETE FROM tasks WHERE seq <= ?", seq);
  }

  private first(query: string, ...bindings: SqlStorageValue[]): TaskRow | undefined {
    return this.sql.exec<TaskRow>(query, ...bindings).toArray()[0];
  }
}

function toRecord(row: TaskRow): TaskRecord {
  const kind = KINDS.find((k) => k === row.kind);
  const status = STATUSES.find((s) => s === row.status);
  if (!kind || !status) throw new Error(`corrupt task row ${row.id}: ${row.kind}/${row.status}`);
  return {
    seq: row.seq,
    id: row.id,
    kind,
    payload: row.payload,
    status,
    background: row.background === 1,
    ephemeral: row.ephemeral === 1,
    attempts: row.attempts,
    notBefore: row.not_before,
    error: row.error,
    result: row.result,
    checkpoint: row.checkpoint,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
