/**
 * The agent's durable task queue: a table in the Durable Object's SQLite. Which task runs
 * next follows the lanes (`Lane` below):
 *
 * - writes and compression cycles form one strict order, by (position, seq): a cycle that a
 *   remember queues takes the remember's position, so it runs before any later write, and the
 *   network after a sequence of calls does not depend on how fast they came;
 * - a read runs as soon as no write that arrived before it is still waiting; it overtakes cycles
 *   (which yield to it between any two nodes) and maintenance;
 * - maintenance runs when nothing else can.
 *
 * A task interrupted by eviction is found `running` on wake and re-queued in place; its attempt
 * was counted when it started (the start is committed before the task runs), so a task the
 * platform keeps killing fails after MAX_TASK_ATTEMPTS instead of wedging the queue. Reads have
 * a caller waiting in memory (after an eviction nobody waits): they are kept in memory and write
 * no row; a read runs once no write accepted before it waits or runs, reads in arrival order.
 */
import { FINISHED_TASKS_KEPT, MAX_TASK_ATTEMPTS } from "../config/limits";

/**
 * How a task kind is scheduled:
 * - write: the client's durable work (remember, configure, delete…), strictly in arrival order;
 * - read: ephemeral (the caller waits in memory); runs as soon as every write accepted before it
 *   is applied, overtaking background work;
 * - cycle: durable background work that changes the network (compression): writes never overtake
 *   it, so the network after a sequence of calls does not depend on their timing; it yields to reads;
 * - maintenance: durable background work that changes no memory (vector index retries): runs when
 *   nothing else can.
 */
export type Lane = "write" | "read" | "cycle" | "maintenance";

export type TaskStatus = "queued" | "running" | "done" | "failed";

const STATUSES: readonly TaskStatus[] = ["queued", "running", "done", "failed"];
const LANES: readonly Lane[] = ["write", "read", "cycle", "maintenance"];

export interface TaskRecord {
  seq: number;
  id: string;
  kind: string;
  lane: Lane;
  /** The order key of writes and cycles: the task's own seq, or the seq of the task it follows. */
  position: number;
  payload: string;
  status: TaskStatus;
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
  lane: string;
  position: number;
  payload: string;
  status: string;
  attempts: number;
  not_before: number;
  error: string | null;
  result: string | null;
  checkpoint: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface NewTask {
  id: string;
  kind: string;
  lane: Lane;
  /** Of the kind's payload type (its producer validated it); parsed from storage when the task runs. */
  payload: unknown;
  /** Queue right behind this task (same position); default: at the end. */
  after?: TaskRecord;
  now: number;
}

const READ_FIELDS = {
  ...{ lane: "read", status: "queued", attempts: 0, notBefore: 0 },
  ...{ error: null, result: null, checkpoint: null, startedAt: null, finishedAt: null },
} satisfies Partial<TaskRecord>;

export class TaskQueue {
  /**
   * Reads waiting or running, in arrival order (never stored: see above). A read's `seq` and
   * `position` are those of the last task accepted before it: it runs after every write up to it.
   */
  private readonly reads: TaskRecord[] = [];

  constructor(private readonly sql: SqlStorage) {}

  enqueue(task: NewTask): TaskRecord {
    if (task.lane === "read") return this.enqueueRead(task);
    const row = this.sql
      .exec<TaskRow>(
        `INSERT INTO tasks (id, kind, lane, payload, status, created_at) VALUES (?, ?, ?, ?, 'queued', ?) RETURNING *`,
        task.id,
        task.kind,
        task.lane,
        JSON.stringify(task.payload ?? null),
        task.now,
      )
      .one();
    const position = task.after ? task.after.position : row.seq;
    this.sql.exec("UPDATE tasks SET position = ? WHERE seq = ?", position, row.seq);
    return toRecord({ ...row, position });
  }

  private enqueueRead(task: NewTask): TaskRecord {
    // Every write accepted so far has a seq up to this one (AUTOINCREMENT: later ones are larger).
    const last = this.sql.exec<{ seq: number | null }>("SELECT max(seq) AS seq FROM tasks").one().seq ?? 0;
    const { id, kind, now } = task;
    const read: TaskRecord = {
      ...READ_FIELDS,
      seq: last,
      position: last,
      id,
      kind,
      payload: JSON.stringify(task.payload ?? null),
      createdAt: now,
    };
    this.reads.push(read);
    return read;
  }

  /** The task to run now, or undefined (nothing runnable, or the head waits for a retry backoff). */
  next(now: number): TaskRecord | undefined {
    const read = this.runnableRead();
    if (read) return read;
    const head = this.first("SELECT * FROM tasks WHERE status = 'queued' AND lane IN ('write', 'cycle') ORDER BY position, seq LIMIT 1");
    // A write or cycle waiting for its retry backoff holds everything behind it: the order is strict.
    if (head) return head.not_before <= now ? toRecord(head) : undefined;
    const maintenance = this.first("SELECT * FROM tasks WHERE status = 'queued' AND lane = 'maintenance' ORDER BY seq LIMIT 1");
    return maintenance && maintenance.not_before <= now ? toRecord(maintenance) : undefined;
  }

  /** The next `limit` queued tasks of `kind` in queue order (work that may be prepared ahead). */
  upcoming(kind: string, limit: number): TaskRecord[] {
    return this.sql
      .exec<TaskRow>("SELECT * FROM tasks WHERE status = 'queued' AND kind = ? ORDER BY position, seq LIMIT ?", kind, limit)
      .toArray()
      .map(toRecord);
  }

  /** True when a read could run now: background work should yield to it. */
  readWaiting(): boolean {
    return this.runnableRead() !== undefined;
  }

  /** The oldest waiting read, if no write accepted before it is still waiting or running. */
  runnableRead(): TaskRecord | undefined {
    const read = this.reads.find((r) => r.status === "queued");
    if (!read) return undefined;
    const earlierWrite = this.first(
      "SELECT seq FROM tasks WHERE status IN ('queued', 'running') AND lane = 'write' AND seq <= ? LIMIT 1",
      read.seq,
    );
    return earlierWrite ? undefined : { ...read };
  }

  /**
   * Earliest moment a durable queued task may run, or null when there is none: what the alarm and
   * the cron's registry track. Reads are left out: their caller is waiting in this instance and
   * they are dropped on a wake.
   */
  earliestDue(): number | null {
    const row = this.sql
      .exec<{ due: number | null }>("SELECT min(not_before) AS due FROM tasks WHERE status IN ('queued', 'running') AND lane <> 'read'")
      .one();
    return row.due;
  }

  /**
   * Client work waiting (writes): what the queue limit bounds. Cycles and maintenance are the
   * agent's own work and never make a client's write bounce.
   */
  queuedWrites(): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM tasks WHERE status = 'queued' AND lane = 'write'").one().n;
  }

  /**
   * Stored tasks of a renamed kind take the new name (`renamed`: old name to new), so tasks queued
   * by an earlier version run and their status reads under the name the API uses now.
   */
  renameKinds(renamed: Readonly<Record<string, string>>): void {
    for (const [old, current] of Object.entries(renamed)) this.sql.exec("UPDATE tasks SET kind = ? WHERE kind = ?", current, old);
  }

  /**
   * Writes of `kinds` queued or running, and the highest next node id a queued or running import
   * sets (null when none is): the node ids the queue may still take (src/agent/node-id-room.ts).
   */
  pendingAllocations(kinds: readonly string[]): { writes: number; importNext: number | null } {
    return this.sql
      .exec<{ writes: number; importNext: number | null }>(
        `SELECT count(*) FILTER (WHERE kind IN (SELECT value FROM json_each(?))) AS writes,
                max(CASE WHEN kind = 'importAgent' THEN json_extract(payload, '$.next_node_id') END) AS importNext
         FROM tasks WHERE status IN ('queued', 'running') AND lane = 'write'`,
        JSON.stringify(kinds),
      )
      .one();
  }

  /** Whether an import task of `importId` is queued or running (it reads that staging). */
  importQueued(importId: string): boolean {
    return (
      this.first(
        "SELECT seq FROM tasks WHERE kind = 'importAgent' AND status IN ('queued', 'running') AND json_extract(payload, '$.import_id') = ?",
        importId,
      ) !== undefined
    );
  }

  /** Tasks waiting (any lane but reads). */
  queuedDurable(): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM tasks WHERE status = 'queued' AND lane <> 'read'").one().n;
  }

  get(id: string): TaskRecord | undefined {
    const row = this.first("SELECT * FROM tasks WHERE id = ?", id);
    return row ? toRecord(row) : undefined;
  }

  /** Marks the task running (one more attempt); returns it as its row now stands. */
  markRunning(id: string, now: number): TaskRecord | undefined {
    const read = this.reads.find((r) => r.id === id);
    if (read) {
      read.status = "running";
      read.attempts += 1;
      read.startedAt ??= now;
      return { ...read };
    }
    const row = this.first(
      "UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, ?) WHERE id = ? RETURNING *",
      now,
      id,
    );
    return row ? toRecord(row) : undefined;
  }

  /** The start time of a task marked running ahead of its turn, once its turn has come. */
  stampStart(id: string, now: number): void {
    this.sql.exec("UPDATE tasks SET started_at = ? WHERE id = ?", now, id);
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
    this.sql.exec("UPDATE tasks SET status = 'queued', error = ?, not_before = ? WHERE id = ?", error, notBefore, id);
  }

  /** Background work that yielded goes back to the queue in place; the slice is not an attempt. */
  yieldInPlace(id: string): void {
    this.sql.exec(
      "UPDATE tasks SET status = 'queued', attempts = max(attempts - 1, 0), not_before = 0 WHERE id = ? AND status = 'running'",
      id,
    );
  }

  /**
   * Marks up to `limit` compression cycles that come right after `leader` in the queue's order
   * (no write between them) as done, merged into it (one pass runs them all: src/operations/compress-memories/task.ts).
   */
  absorbFollowingCycles(leader: Pick<TaskRecord, "id" | "seq" | "position" | "kind">, limit: number, now: number): number {
    if (limit <= 0) return 0;
    const following = this.sql
      .exec<{ seq: number; kind: string; not_before: number }>(
        `SELECT seq, kind, not_before FROM tasks WHERE status = 'queued' AND lane IN ('write', 'cycle')
           AND (position > ? OR (position = ? AND seq > ?)) ORDER BY position, seq LIMIT ?`,
        leader.position,
        leader.position,
        leader.seq,
        limit,
      )
      .toArray();
    const seqs: number[] = [];
    for (const row of following) {
      if (row.kind !== leader.kind || row.not_before > now) break;
      seqs.push(row.seq);
    }
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
    const read = this.reads.findIndex((r) => r.id === id);
    if (read >= 0) this.reads.splice(read, 1);
    else this.sql.exec("DELETE FROM tasks WHERE id = ?", id);
  }

  /**
   * On wake: orphaned reads are dropped; interrupted tasks go back to the queue in place, except
   * those interrupted MAX_TASK_ATTEMPTS times, which fail (a task that keeps getting its
   * invocation killed would otherwise hold the queue forever).
   */
  recoverAfterWake(now: number): { requeued: number; dropped: number; failed: number } {
    // Reads stored by an earlier version of the queue.
    const dropped = this.sql.exec("DELETE FROM tasks WHERE lane = 'read' AND status IN ('queued', 'running')").rowsWritten;
    const failed = this.sql.exec(
      `UPDATE tasks SET status = 'failed', finished_at = ?,
         error = 'interrupted ' || attempts || ' times (the platform ended its invocation: CPU, memory or time limit)'
       WHERE status = 'running' AND attempts >= ?`,
      now,
      MAX_TASK_ATTEMPTS,
    ).rowsWritten;
    const requeued = this.sql.exec("UPDATE tasks SET status = 'queued' WHERE status = 'running'").rowsWritten;
    return { requeued, dropped, failed };
  }

  /** Writes queued or running before `seq` (the position of a new task). */
  ahead(seq: number): number {
    return this.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM tasks WHERE seq < ? AND status IN ('queued', 'running') AND lane = 'write'", seq)
      .one().n;
  }

  counts(): Record<TaskStatus, number> {
    const counts: Record<TaskStatus, number> = { queued: 0, running: 0, done: 0, failed: 0 };
    for (const row of this.sql.exec<{ status: string; n: number }>("SELECT status, count(*) AS n FROM tasks GROUP BY status")) {
      const status = STATUSES.find((s) => s === row.status);
      if (status) counts[status] = row.n;
    }
    for (const read of this.reads) counts[read.status] += 1;
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
  const status = STATUSES.find((s) => s === row.status);
  const lane = LANES.find((l) => l === row.lane);
  if (!status || !lane) throw new Error(`corrupt task row ${row.id}: ${row.lane}/${row.status}`);
  return {
    seq: row.seq,
    id: row.id,
    kind: row.kind,
    lane,
    position: row.position,
    payload: row.payload,
    status,
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
