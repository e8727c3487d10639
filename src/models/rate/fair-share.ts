/**
 * Fair share of the account's text-generation budget between tenants (docs/design.md, "Fair
 * share of the model budget"). Workers AI limits text generation per account (300 requests a
 * minute for most models), so one tenant's backlog could take every slot while another's
 * remembers wait. Every text call asks the account's coordinator (model-share-object.ts) for a
 * permit; this is its scheduler, pure and clock-driven.
 *
 * - Rate: permits are paced at `permitsPerWindow` per `windowMs`, one every windowMs /
 *   permitsPerWindow, with a small burst (`burst`) when the account was idle, and never more than
 *   `permitsPerWindow` in any window (a sliding log, as the service counts): the coordinator never
 *   trips the account's limit, and a newcomer waits at most one interval for the next permit.
 * - Order: start-time fair queueing between tenants with requests waiting. A request's tag is
 *   max(virtual time, its tenant's last finish) and its tenant's finish moves on by 1 / weight;
 *   the permit goes to the smallest tag. A tenant that was idle starts at the current virtual time
 *   (no credit banked while idle), so a tenant with a backlog and one with a trickle each get
 *   their weight's share while both wait, and the trickle's requests go ahead of the backlog's.
 * - Patience: each request waits at most its `maxWaitMs`; then it is refused (the caller falls back
 *   to the local model, as it does after a 429 it cannot wait out).
 */

export interface FairShareOptions {
  permitsPerWindow: number;
  windowMs: number;
  /** Permits that may go at once after an idle spell (the pace holds beyond them). */
  burst: number;
}

interface Waiter {
  tenant: string;
  tag: number;
  seq: number;
  deadline: number;
  settle: (granted: boolean) => void;
}

export class FairShare {
  private readonly waiting: Waiter[] = [];
  /** Start times of the permits of the last window, oldest first. */
  private readonly granted: number[] = [];
  private readonly finish = new Map<string, number>();
  private virtualTime = 0;
  private seq = 0;
  /** Pacing: permits banked (up to `burst`) and when they were last counted. */
  private tokens: number;
  private tokensAt: number | undefined;
  readonly intervalMs: number;

  constructor(private readonly options: FairShareOptions) {
    if (!(options.permitsPerWindow >= 1) || !(options.windowMs > 0) || !(options.burst >= 1)) {
      throw new RangeError("permitsPerWindow and burst must be at least 1, windowMs positive");
    }
    this.intervalMs = options.windowMs / options.permitsPerWindow;
    this.tokens = options.burst;
  }

  /**
   * Queues a request of `tenant` (its `weight` ≥ 1); `settle(true)` when it may call, or
   * `settle(false)` once `maxWaitMs` passed without a permit. Call `pump(now)` after.
   */
  request(tenant: string, weight: number, maxWaitMs: number, now: number, settle: (granted: boolean) => void): void {
    const start = Math.max(this.virtualTime, this.finish.get(tenant) ?? 0);
    this.finish.set(tenant, start + 1 / Math.max(1, weight));
    this.waiting.push({ tenant, tag: start, seq: this.seq++, deadline: now + Math.max(0, maxWaitMs), settle });
  }

  /**
   * Grants what may go now, in tag order, and refuses what waited too long. Returns when to pump
   * again (the next permit or deadline), or undefined when nothing waits.
   */
  pump(now: number): number | undefined {
    this.refill(now);
    while (this.waiting.length > 0 && this.tokens >= 1 && this.windowRoom(now)) {
      const next = this.takeSmallest();
      this.tokens -= 1;
      this.granted.push(now);
      this.virtualTime = next.tag;
      next.settle(true);
    }
    // Past their patience (a request that could not go at once with no patience left goes here too).
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const w = this.waiting[i];
      if (w && w.deadline <= now) {
        this.waiting.splice(i, 1);
        w.settle(false);
      }
    }
    if (this.waiting.length === 0) {
      this.forgetIdleTenants();
      return undefined;
    }
    const nextPermit = Math.max(
      this.tokensAt !== undefined ? this.tokensAt + (1 - this.tokens) * this.intervalMs : now,
      this.windowOpensAt(),
    );
    const nextDeadline = Math.min(...this.waiting.map((w) => w.deadline));
    return Math.max(now, Math.min(nextPermit, nextDeadline));
  }

  /** Requests waiting now, by tenant (for tests and the coordinator's log). */
  waitingByTenant(): Map<string, number> {
    const out = new Map<string, number>();
    for (const w of this.waiting) out.set(w.tenant, (out.get(w.tenant) ?? 0) + 1);
    return out;
  }

  private refill(now: number): void {
    if (this.tokensAt === undefined) {
      this.tokensAt = now;
      return;
    }
    const earned = (now - this.tokensAt) / this.intervalMs;
    this.tokens = Math.min(this.options.burst, this.tokens + earned);
    this.tokensAt = now;
  }

  /** Whether one more permit now keeps the last window within the limit. */
  private windowRoom(now: number): boolean {
    while (this.granted.length > 0 && (this.granted[0] ?? 0) <= now - this.options.windowMs) this.granted.shift();
    return this.granted.length < this.options.permitsPerWindow;
  }

  /** When the oldest permit of the window leaves it (now, when there is room). */
  private windowOpensAt(): number {
    if (this.granted.length < this.options.permitsPerWindow) return 0;
    return (this.granted[0] ?? 0) + this.options.windowMs;
  }

  private takeSmallest(): Waiter {
    let best = 0;
    for (let i = 1; i < this.waiting.length; i++) {
      const a = this.waiting[i];
      const b = this.waiting[best];
      if (a && b && (a.tag < b.tag || (a.tag === b.tag && a.seq < b.seq))) best = i;
    }
    const [taken] = this.waiting.splice(best, 1);
    if (!taken) throw new Error("nothing waits");
    return taken;
  }

  /** Tenants whose finish is behind the virtual time carry nothing: dropped, so the map stays small. */
  private forgetIdleTenants(): void {
    for (const [tenant, finish] of this.finish) if (finish <= this.virtualTime) this.finish.delete(tenant);
  }
}
