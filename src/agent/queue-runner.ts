/**
 * Drains the agent's task queue: one task at a time, in arrival order (single-flight), with one
 * alarm per object as the durable backstop. Whatever is queued when the object is evicted is
 * picked up by the alarm on the next wake: "overdue rows survive a restart, the alarm may not",
 * so the alarm is re-armed from the queue after every change.
 *
 * Outcomes are returned, faults are thrown: a task that throws is retried in place with backoff
 * (later tasks wait: the order is strict) and marked failed after MAX_TASK_ATTEMPTS, after which
 * the queue moves on.
 */
import { MAX_TASK_ATTEMPTS } from "../config/limits";
import { AgentRegistry } from "../storage/agent-registry";
import type { AgentState } from "./agent-state";
import { runCycle } from "./compress-task";
import { runDeleteAgent } from "./delete-task";
import { runIndexTask } from "./indexing";
import { runRemember } from "./remember-task";
import { randomId } from "./runtime";
import type { TaskRecord } from "./task-queue";
import { PermanentTaskError } from "./task-errors";

interface Waiter {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How far ahead the backstop alarm is set while the queue drains in-process. */
export const ALARM_BACKSTOP_MS = 5_000;

/** Backoff before retry n (1-based) of a failing task. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** (attempt - 1));
}

export class QueueRunner {
  private draining: Promise<void> | undefined;
  /** Work arrived while a drain was finishing: drain once more rather than wait for the alarm. */
  private kickAgain = false;
  private readonly waiters = new Map<string, Waiter>();
  private readonly finishListeners = new Map<string, Set<() => void>>();
  /** Replaceable in tests, so retries need no real waiting. */
  retryDelay: (attempt: number) => number = retryDelayMs;

  constructor(
    private readonly rt: AgentState,
    private readonly ctx: DurableObjectState,
  ) {}

  /**
   * After an enqueue: make sure an alarm exists (durability) and start draining now (latency).
   * The alarm is only a backstop while this instance drains, so it is set a little in the future:
   * an alarm due now would fire at once and compete with the requests it is meant to protect.
   * If the object is evicted, the alarm brings it back; a wake re-arms it for now.
   */
  async wake(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + ALARM_BACKSTOP_MS);
    setTimeout(() => this.kick(), 0);
  }

  async runFromAlarm(): Promise<void> {
    this.kick();
    await this.draining;
  }

  /** Runs `run` when the ephemeral task `taskId` reaches the head of the queue. */
  waitForResult<T>(taskId: string, run: () => Promise<T>): Promise<T> {
    const result = new Promise<T>((resolve, reject) => {
      this.waiters.set(taskId, { run, resolve: (v) => resolve(v as T), reject });
    });
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
      if (draining) {
        await Promise.race([draining, sleep(left)]);
      } else {
        // Paused between slices, or waiting for a retry backoff: the alarm resumes the work.
        await sleep(Math.min(left, 10));
      }
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
    let listener: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      listener = resolve;
      timer = setTimeout(resolve, timeoutMs);
      const set = this.finishListeners.get(taskId) ?? new Set();
      set.add(resolve);
      this.finishListeners.set(taskId, set);
    });
    clearTimeout(timer);
    if (listener) this.finishListeners.get(taskId)?.delete(listener);
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
    this.ctx.waitUntil(run);
  }

  private async drain(): Promise<void> {
    this.kickAgain = false;
    await this.syncRegistryDue();
    for (;;) {
      const task = this.rt.queue.next(Date.now());
      if (!task) break;
      // A compression cycle that used up its time slice pauses the drain: the alarm resumes it.
      if ((await this.runOne(task)) === "pause") break;
    }
    this.rt.queue.prune();
    await this.armAlarm();
    await this.syncRegistryDue();
  }

  private async runOne(task: TaskRecord): Promise<"continue" | "pause"> {
    this.rt.queue.markRunning(task.id, Date.now());
    const attempt = task.attempts + 1;
    try {
      const next = await this.execute(task);
      this.notifyFinished(task.id);
      this.notifyMerged();
      return next;
    } catch (err) {
      // A failure may have come between a committed write and its mirror in memory.
      this.rt.dropGraph();
      const message = err instanceof Error ? err.message : String(err);
      if (task.ephemeral || attempt >= MAX_TASK_ATTEMPTS || err instanceof PermanentTaskError) {
        if (task.ephemeral) this.rt.queue.remove(task.id);
        else this.rt.queue.fail(task.id, message, Date.now());
        this.waiters.get(task.id)?.reject(err);
        this.waiters.delete(task.id);
        this.notifyFinished(task.id);
        console.error(`task ${task.kind} ${task.id} failed after ${attempt} attempt(s)`, err);
      } else {
        this.rt.queue.retryLater(task.id, message, Date.now() + this.retryDelay(attempt));
      }
      return "continue";
    }
  }

  private async execute(task: TaskRecord): Promise<"continue" | "pause"> {
    switch (task.kind) {
      case "recall":
      case "search":
        await this.answerWaiter(task);
        return "continue";
      case "index": {
        const result = await runIndexTask(this.rt, await this.rt.repos(), task);
        this.rt.queue.complete(task.id, result, Date.now());
        return "continue";
      }
      case "remember": {
        const outcome = await runRemember(this.rt, task);
        this.rt.storage.transactionSync(() => {
          this.rt.focus.replace(outcome.plan.focus);
          this.rt.meta.bump({ characters_remembered: outcome.charactersRemembered, remembers: 1, nodes_evicted: outcome.evicted });
          this.rt.queue.complete(task.id, outcome.result, Date.now());
          // Every remember triggers one compression cycle (DESIGN §4 step 7), unless paused.
          if (this.rt.meta.params().auto_compress) {
            this.rt.queue.enqueue({ id: randomId("tsk_"), kind: "compress", payload: null, background: true, now: Date.now() });
          }
        });
        return "continue";
      }
      case "compress": {
        const outcome = await runCycle(this.rt, task, () => this.rt.queue.foregroundWaiting());
        if (outcome.status === "done") {
          this.rt.queue.complete(task.id, outcome.result, Date.now());
          return "continue";
        }
        this.rt.queue.yieldInPlace(task.id);
        return outcome.reason === "time_slice" ? "pause" : "continue";
      }
      case "delete":
        await runDeleteAgent(this.rt, task);
        this.rt.clearCaches();
        return "continue";
    }
  }

  /** Runs an ephemeral task's work for the caller waiting on it (recall). */
  private async answerWaiter(task: TaskRecord): Promise<void> {
    const waiter = this.waiters.get(task.id);
    this.waiters.delete(task.id);
    if (!waiter) {
      this.rt.queue.remove(task.id);
      return;
    }
    try {
      const value = await waiter.run();
      this.rt.queue.remove(task.id);
      waiter.resolve(value);
    } catch (err) {
      this.waiters.set(task.id, waiter);
      throw err;
    }
  }

  private notifyFinished(taskId: string): void {
    for (const listener of this.finishListeners.get(taskId) ?? []) listener();
    this.finishListeners.delete(taskId);
  }

  /** Tasks finished by another (cycles merged into a pass) release their waiters too. */
  private notifyMerged(): void {
    for (const taskId of this.finishListeners.keys()) {
      const status = this.rt.queue.get(taskId)?.status;
      if (status === "done" || status === "failed") this.notifyFinished(taskId);
    }
  }

  /** The one alarm: at the earliest due task, or none when the queue is empty. */
  private async armAlarm(): Promise<void> {
    const due = this.rt.queue.earliestDue();
    if (due === null) {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    const at = Math.max(due, Date.now());
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  /** Tells the D1 registry whether the agent has work due (for the cron safety net), on change only. */
  private async syncRegistryDue(): Promise<void> {
    const repos = this.rt.existingRepos();
    if (!repos) return;
    const due = this.rt.queue.earliestDue();
    const registered = this.rt.meta.get("registeredDue") ?? null;
    if ((due === null) === (registered === null)) return;
    await new AgentRegistry(this.rt.db).setDue(repos.uid, due === null ? null : Math.max(due, Date.now()), Date.now());
    this.rt.meta.set("registeredDue", due);
  }
}
