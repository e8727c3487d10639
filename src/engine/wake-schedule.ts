/**
 * When the agent's object wakes next (queue-runner.ts): the one alarm per object, set for the
 * earliest due work ("overdue rows survive a restart, the alarm may not"): the queue's earliest
 * task or the object's own schedule (an expiry, docs/design.md, "Expiry is a purge at a time set in
 * advance"); and the agent's `due_at` in the D1 registry, which the cron reads as its safety net
 * (src/scheduled.ts).
 */
import type { RunnerRuntime } from "./runtime";

/** How far ahead the backstop alarm is set while the queue drains in-process. */
export const ALARM_BACKSTOP_MS = 5_000;

export class WakeSchedule {
  constructor(
    private readonly rt: RunnerRuntime,
    private readonly ctx: DurableObjectState,
  ) {}

  /**
   * Work was queued: make sure an alarm exists (durability). While this instance drains it is
   * only a backstop, so it is set a little in the future: an alarm due now would fire at once and
   * compete with the requests it is meant to protect. If the object is evicted, the alarm brings
   * it back; a wake re-arms it for now.
   */
  async armBackstop(): Promise<void> {
    const alarm = await this.ctx.storage.getAlarm();
    // An alarm in the past that has not fired is stale (it was set while its own handler ran):
    // replace it, or queued work would wait for an unrelated request.
    if (alarm === null || alarm < Date.now() - ALARM_BACKSTOP_MS) await this.ctx.storage.setAlarm(Date.now() + ALARM_BACKSTOP_MS);
  }

  /**
   * After a drain. Work still due: the one alarm at the earliest due task, and the D1 registry
   * marked busy for the cron. An idle queue: a drain that the alarm or the cron started
   * (`cleanUp`) deletes the alarm and marks the agent idle in the registry; a drain that a request
   * started leaves both to that cleanup (an alarm is armed for it while the registry says busy).
   * Writing the registry on every busy→idle→busy turn would cost two D1 writes per remember when
   * a client sends one at a time. `upkeep`: when the object's own upkeep (its usage report) is
   * due, or null; the alarm is armed for it too.
   */
  async settle(cleanUp: boolean, upkeep: number | null): Promise<void> {
    const due = this.earliestDue();
    const current = await this.ctx.storage.getAlarm();
    if (due !== null) {
      const at = Math.max(Math.min(due, upkeep ?? Infinity), Date.now());
      // A stored alarm in the past has already fired (or never will): set it again.
      if (current === null || current > at || current < Date.now()) await this.ctx.storage.setAlarm(at);
      // Only the schedule is left (a later expiry): the registry tells the cron that time, not an older one.
      if (cleanUp && this.rt.queue.earliestDue() === null) await this.registerDue(due);
      else await this.registerBusy();
      return;
    }
    const registered = this.rt.meta.get("registeredDue") ?? null;
    let alarm = cleanUp ? null : current;
    if (cleanUp) {
      if (current !== null) await this.ctx.storage.deleteAlarm();
      const repos = this.rt.existingRepos();
      if (repos && registered !== null) {
        await repos.registry.setDue(repos.agentUid, null, Date.now());
        this.rt.meta.set("registeredDue", null);
      }
    } else if (registered !== null && (current === null || current < Date.now())) {
      await this.ctx.storage.setAlarm((alarm = Date.now() + ALARM_BACKSTOP_MS));
    }
    // The upkeep's own time, unless an alarm comes first anyway.
    const upkeepAt = upkeep === null ? null : Math.max(upkeep, Date.now());
    if (upkeepAt !== null && (alarm === null || alarm < Date.now() || alarm > upkeepAt)) await this.ctx.storage.setAlarm(upkeepAt);
  }

  /**
   * The earliest due work: the queue's earliest task, or the object's own schedule (an expiry; one
   * due now is queued by asking).
   */
  earliestDue(): number | null {
    const scheduled = this.rt.scheduleDue(Date.now());
    const queued = this.rt.queue.earliestDue();
    if (queued === null) return scheduled;
    return scheduled === null ? queued : Math.min(queued, scheduled);
  }

  /**
   * Marks the agent busy in the D1 registry (for the cron safety net) when it is not already, or
   * when its work is now due earlier than registered (an expiry sooner than the last one known).
   */
  async registerBusy(): Promise<void> {
    const repos = this.rt.existingRepos();
    if (!repos) return;
    const due = this.earliestDue();
    const registered = this.rt.meta.get("registeredDue") ?? null;
    if (due === null || (registered !== null && registered <= due)) return;
    await repos.registry.setDue(repos.agentUid, Math.max(due, Date.now()), Date.now());
    this.rt.meta.set("registeredDue", due);
  }

  /** Registers exactly `due` (unless the registry holds it already). */
  private async registerDue(due: number): Promise<void> {
    const repos = this.rt.existingRepos();
    if (!repos || this.rt.meta.get("registeredDue") === due) return;
    await repos.registry.setDue(repos.agentUid, due, Date.now());
    this.rt.meta.set("registeredDue", due);
  }
}
