/**
 * Drains the agent's task queue: one task at a time (single-flight), in the queue's order
 * (src/engine/task-queue.ts), with one alarm per object as the durable backstop. Whatever is
 * queued when the object is evicted is picked up by the alarm on the next wake: "overdue rows
 * survive a restart, the alarm may not", so the alarm is re-armed from the queue after every drain
 * (wake-schedule.ts, with the registry's due time for the cron and the object's own schedule).
 * Callers wait through task-waiters.ts.
 *
 * Outcomes are returned, faults are thrown: a task that throws is retried in place with backoff
 * (later tasks wait: the order is strict) and marked failed after MAX_TASK_ATTEMPTS, after which
 * the queue moves on. A task that can never succeed (an unreadable payload, checkpoint or intent)
 * fails at its first attempt.
 *
 * One drain does a bounded amount of work (DRAIN_MAX_TASKS durable tasks, no task started after
 * DRAIN_BUDGET_MS): a backlog, or a CPU-bound local model, never runs one invocation into the
 * platform's CPU limit or the alarm's wall time. What is left is handed to a fresh invocation: the
 * alarm, set for now. Long tasks (a compression pass, an agent deletion) slice themselves the same
 * way. An invocation the platform ends anyway still counts the task's attempt, committed before
 * the task ran.
 */
import { DRAIN_BUDGET_MS, DRAIN_MAX_TASKS, MAX_TASK_ATTEMPTS } from "../config/limits";
import { parseJsonOrUndefined } from "../storage/row-parsing";
import { yieldToEventLoop } from "./event-loop";
import { PermanentTaskError } from "./task-errors";
import type { RunnerRuntime } from "./runtime";
import type { TaskRecord } from "./task-queue";
import type { TaskOutcome } from "./define-task";
import type { TaskKinds } from "./task-kinds";
import { TaskWaiters } from "./task-waiters";
import { WakeSchedule } from "./wake-schedule";
import { redoIntent } from "./write-path";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Backoff before retry n (1-based) of a failing task. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** (attempt - 1));
}

export class QueueRunner {
  private draining: Promise<void> | undefined;
  /** Work arrived while a drain was finishing: drain once more rather than wait for the alarm. */
  private kickAgain = false;
  /** The alarm or the cron started this drain: an idle queue then clears the alarm and the registry. */
  private cleanUpWhenIdle = false;
  /** Tasks finished since the finished ones were last pruned. */
  private finishedSincePrune = 0;
  /**
   * The task whose start was committed with the previous task's end (see finish): it runs next,
   * unless a read that arrived meanwhile goes first.
   */
  private started: TaskRecord | undefined;
  private readonly waiters = new TaskWaiters();
  private readonly schedule: WakeSchedule;
  /** Replaceable in tests, so retries need no real waiting. */
  retryDelay: (attempt: number) => number = retryDelayMs;
  /** The work one drain does before handing the rest to the alarm; replaceable in tests. */
  drainBudget: { tasks: number; ms: number } = { tasks: DRAIN_MAX_TASKS, ms: DRAIN_BUDGET_MS };
  /** Told of every drain as it starts (the object's usage meter counts its time as active). */
  observeDrain: ((drain: Promise<void>) => void) | undefined;
  /** When the object's own upkeep (its usage report) is due, or null: the alarm is armed for it too (not a task). */
  upkeepDue: (() => number | null) | undefined;
  /** Drains that ended at their budget with work left, since the object woke (tests read it). */
  handovers = 0;
  /** Requests the object has served since it woke: the drain gives way to them (giveWay). */
  private requests = 0;

  constructor(
    private readonly rt: RunnerRuntime,
    private readonly ctx: DurableObjectState,
    /** The kinds this runner dispatches (the agent's; tests run kinds of their own). */
    private readonly tasks: TaskKinds,
  ) {
    this.schedule = new WakeSchedule(rt, ctx);
  }

  /** After an enqueue: make sure an alarm exists (durability) and start draining now (latency). */
  async wake(): Promise<void> {
    await this.schedule.armBackstop();
    setTimeout(() => this.kick(), 0);
  }

  /** The object is serving a request: its answer leaves before the next task starts. */
  requestArrived(): void {
    this.requests += 1;
  }

  async runFromAlarm(): Promise<void> {
    this.cleanUpWhenIdle = true;
    this.kick();
    await this.draining;
  }

  /** The cron safety net: drain whatever is due, and tidy up an idle agent's registry entry. */
  async wakeFromCron(): Promise<void> {
    this.cleanUpWhenIdle = true;
    await this.wake();
  }

  /** Resolves with the result of the read task `taskId` once it has run. */
  waitForResult(taskId: string): Promise<unknown> {
    const result = this.waiters.result(taskId);
    this.kick();
    return result;
  }

  /**
   * Resolves once nothing is queued or running (time-sliced cycles included, which an alarm
   * resumes), or after `timeoutMs`. Returns whether the queue is idle.
   */
  async waitForIdle(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.idle()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      const draining = this.draining;
      if (draining) await Promise.race([draining, sleep(left)]);
      // Paused between slices, or waiting for a retry backoff: the alarm resumes the work.
      else await sleep(Math.min(left, 10));
    }
    return true;
  }

  private idle(): boolean {
    const counts = this.rt.queue.counts();
    return counts.queued === 0 && counts.running === 0;
  }

  /** Resolves when the task is done or failed, or after `timeoutMs`. */
  async waitForFinish(taskId: string, timeoutMs: number): Promise<void> {
    const task = this.rt.queue.get(taskId);
    if (!task || task.status === "done" || task.status === "failed") return;
    await this.waiters.finish(taskId, timeoutMs);
  }

  private kick(): void {
    if (this.draining) {
      this.kickAgain = true;
      return;
    }
    const run = this.drain()
      .catch((err: unknown) => console.error("queue drain failed", err))
      .finally(() => {
        this.draining = undefined;
        if (this.kickAgain) {
          this.kickAgain = false;
          this.kick();
        }
      });
    this.draining = run;
    this.observeDrain?.(run);
    this.ctx.waitUntil(run);
  }

  private async drain(): Promise<void> {
    this.kickAgain = false;
    // The object's own schedule (an expiry due now) is queued here, behind the writes before it.
    await this.schedule.registerBusy();
    const started = Date.now();
    let durable = 0;
    for (;;) {
      // Past the budget only reads still run (their callers wait in this invocation).
      const spent = durable >= this.drainBudget.tasks || Date.now() - started >= this.drainBudget.ms;
      if (!this.hasWork(spent)) {
        if (spent) this.handOver();
        break;
      }
      await this.giveWay();
      // Picked after giving way: a read that came in meanwhile goes first.
      const task = spent ? this.rt.queue.runnableRead() : this.nextTask();
      if (!task) continue;
      if (task.lane !== "read") durable += 1;
      // A long task that used up its slice (a compression pass, an agent deletion) pauses the
      // drain: the alarm resumes it.
      if ((await this.runOne(task)) === "pause") break;
    }
    if (this.finishedSincePrune >= PRUNE_EVERY) {
      this.rt.queue.prune();
      this.rt.forgotten.pruneOrphans();
      this.finishedSincePrune = 0;
    }
    const cleanUp = this.cleanUpWhenIdle && this.rt.queue.earliestDue() === null;
    if (cleanUp) this.cleanUpWhenIdle = false;
    await this.schedule.settle(cleanUp, this.upkeepDue?.() ?? null);
  }

  /** Whether a task may run now (only a read once the drain's budget is spent). */
  private hasWork(spent: boolean): boolean {
    if (spent) return this.rt.queue.runnableRead() !== undefined;
    return this.started !== undefined || this.rt.queue.next(Date.now()) !== undefined;
  }

  /**
   * Turns of the event loop before a task, until QUIET_TURNS in a row pass without a request
   * reaching the object (at most GIVE_WAY_TURNS): requests waiting for the object get in, and the
   * answers of those it just served leave, before the task holds the thread. In the local runtime
   * a task's D1 awaits never let the loop poll (event-loop.ts), so an answer still on its way when
   * a task starts (a remember's 202, whose task is the next) waits for the whole task.
   */
  private async giveWay(): Promise<void> {
    for (let turns = 0, quiet = 0; quiet < QUIET_TURNS && turns < GIVE_WAY_TURNS; turns += 1) {
      const seen = this.requests;
      await yieldToEventLoop();
      quiet = this.requests === seen ? quiet + 1 : 0;
    }
  }

  /**
   * The drain's budget is spent: the rest of the queue goes to a fresh invocation (settle() sets
   * the alarm for the earliest due task, now). A task already started with the last one's end
   * goes back to the queue unrun, its attempt given back.
   */
  private handOver(): void {
    if (this.rt.queue.earliestDue() === null) return;
    this.handovers += 1;
    if (this.started !== undefined) {
      this.rt.queue.yieldInPlace(this.started.id);
      this.started = undefined;
    }
  }

  /** A read that may run now, else the task started with the last one's end, else the queue's next. */
  private nextTask(): TaskRecord | undefined {
    const now = Date.now();
    const read = this.rt.queue.runnableRead();
    if (read) return read;
    const started = this.started;
    this.started = undefined;
    return started ?? this.rt.queue.next(now);
  }

  private async runOne(task: TaskRecord): Promise<"continue" | "pause"> {
    this.finishedSincePrune += 1;
    // The attempt is on disk before the work starts: an invocation the platform kills mid-task
    // (CPU, memory, wall time) still counts it, so such a task cannot run forever. A task started
    // with the previous one's end (finish) was committed by the turn between the two.
    const preStarted = task.status === "running";
    if (!preStarted) {
      this.rt.queue.markRunning(task.id, Date.now());
      if (task.lane !== "read") await this.ctx.storage.sync();
    } else if (task.attempts === 1) {
      // Its start time is now, not the previous task's end: the turns given way since are not its own.
      this.rt.queue.stampStart(task.id, Date.now());
    }
    const attempt = preStarted ? task.attempts : task.attempts + 1;
    try {
      const outcome = await this.execute(task, attempt);
      this.finish(task, outcome);
      return outcome.status === "yielded" && outcome.reason === "time_slice" ? "pause" : "continue";
    } catch (err) {
      // A failure may have come between a committed write and its mirror in memory.
      this.rt.dropGraph();
      const message = err instanceof Error ? err.message : String(err);
      if (task.lane === "read" || attempt >= MAX_TASK_ATTEMPTS || err instanceof PermanentTaskError) {
        this.rt.storage.transactionSync(() => {
          if (task.lane === "read") this.rt.queue.remove(task.id);
          else this.rt.queue.fail(task.id, message, Date.now());
          // A commit given up after its D1 batch may be in D1 and never in the object's copy.
          if (this.rt.intents.get(task.id) !== undefined) this.rt.dropCopy();
          this.rt.intents.delete(task.id);
        });
        this.waiters.reject(task.id, err);
        this.waiters.finished(task.id);
        console.error(`task ${task.kind} ${task.id} failed after ${attempt} attempt(s)`, err);
      } else {
        this.rt.queue.retryLater(task.id, message, Date.now() + this.retryDelay(attempt));
      }
      return "continue";
    }
  }

  /** Dispatch through the kinds: the payload parsed into the kind's type, a stored intent redone first. */
  private async execute(task: TaskRecord, attempt: number): Promise<TaskOutcome<unknown>> {
    const definition = this.tasks.definition(task.kind);
    const payload = definition.payload.safeParse(parseJsonOrUndefined(task.payload));
    if (!payload.success) throw new PermanentTaskError(`unreadable ${task.kind} payload: ${payload.error.message}`);
    // A read nobody waits for any more (its caller gave up) is dropped unrun.
    if (task.lane === "read" && !this.waiters.awaited(task.id)) return { status: "done", result: null };
    // An intent redone moves the checkpoint on: read it again.
    const redone = await redoIntent(this.rt, task.id);
    const checkpoint = redone ? (this.rt.queue.get(task.id)?.checkpoint ?? null) : task.checkpoint;
    return definition.run(this.rt, {
      id: task.id,
      seq: task.seq,
      position: task.position,
      payload: payload.data,
      checkpoint,
      attempts: attempt,
    });
  }

  private finish(task: TaskRecord, outcome: TaskOutcome<unknown>): void {
    const now = Date.now();
    if (outcome.status === "yielded") {
      this.rt.queue.yieldInPlace(task.id);
      // A pass that yielded to a read resumes after it: started again here.
      if (outcome.reason === "read") this.startNext(now);
      return;
    }
    if (task.lane === "read") {
      this.rt.queue.remove(task.id);
      this.waiters.resolve(task.id, outcome.result);
      return;
    }
    this.rt.storage.transactionSync(() => {
      // An agent deletion takes every task up to itself with it (nothing of the old agent is left
      // to look up); tasks that arrived after it stay and run against the fresh agent.
      if (outcome.resetsAgent) {
        this.rt.queue.removeUpTo(task.seq);
        this.rt.keys.forgetDeleted(task.id);
      } else this.rt.queue.complete(task.id, outcome.result, now);
      for (const next of outcome.followUps ?? []) this.tasks.enqueue(this.rt.queue, next.kind, next.payload, { now, after: task });
      this.startNext(now);
    });
    if (outcome.resetsAgent) this.rt.dropGraph();
    this.waiters.finished(task.id);
    // Tasks finished by another (cycles merged into a pass) release their waiters too.
    this.waiters.finishedAmong((id) => {
      const status = this.rt.queue.get(id)?.status;
      return status === "done" || status === "failed";
    });
  }

  /**
   * Marks the queue's next durable task started in the same transaction as the end of the one
   * before: the turn between the two commits both, so the next task's attempt is on disk before
   * it runs without a commit of its own.
   */
  private startNext(now: number): void {
    const next = this.rt.queue.next(now);
    if (!next || next.lane === "read") return;
    // Kept as marked: nothing but this runner changes a running task's row.
    this.started = this.rt.queue.markRunning(next.id, now);
  }
}

/**
 * Turns without a request before a task starts. Measured locally: with one turn between a
 * remember's 202 and its task, the 202 left only after the task; with two, before it.
 */
const QUIET_TURNS = 2;
/** A steady stream of requests (each turn one more) still lets the queue move after this many turns. */
const GIVE_WAY_TURNS = 8;

/** Finished tasks between two prunings of the oldest (prune() reads FINISHED_TASKS_KEPT rows). */
const PRUNE_EVERY = 100;
