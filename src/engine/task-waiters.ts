/**
 * Who waits for a task of the queue (queue-runner.ts): the caller of a read, for its result (the
 * read is dropped unrun when nobody waits any more), and anyone for a task's end (a write's
 * caller that asked to wait, a test). Kept in memory: a caller that is gone takes its wait with it.
 */

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export class TaskWaiters {
  private readonly results = new Map<string, Waiter>();
  private readonly finishListeners = new Map<string, Set<() => void>>();

  /** Resolves with the read's result once the runner hands it over (resolve), or rejects (reject). */
  result(taskId: string): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => this.results.set(taskId, { resolve, reject }));
  }

  /** Whether the read's caller still waits for its result. */
  awaited(taskId: string): boolean {
    return this.results.has(taskId);
  }

  resolve(taskId: string, value: unknown): void {
    this.results.get(taskId)?.resolve(value);
    this.results.delete(taskId);
  }

  reject(taskId: string, reason: unknown): void {
    this.results.get(taskId)?.reject(reason);
    this.results.delete(taskId);
  }

  /** Resolves when the task is finished (finished, or one of finishedAmong), or after `timeoutMs`. */
  async finish(taskId: string, timeoutMs: number): Promise<void> {
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

  /** The task is done or failed: whoever waits for its end goes on. */
  finished(taskId: string): void {
    for (const listener of this.finishListeners.get(taskId) ?? []) listener();
    this.finishListeners.delete(taskId);
  }

  /** Tasks finished by another (cycles merged into a pass) release their waiters too. */
  finishedAmong(isFinished: (taskId: string) => boolean): void {
    for (const taskId of this.finishListeners.keys()) if (isFinished(taskId)) this.finished(taskId);
  }
}
