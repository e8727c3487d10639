/**
 * One agent runtime's budget of model requests (docs/design.md, "Robustness promises": model rate limits are respected by
 * design). Workers AI limits text generation to a number of requests per minute per account
 * (300 for most text models), so the
 * budget is a sliding window: at most `requestsPerWindow` requests start in any `windowMs`. A
 * token bucket would allow a full burst plus the refill inside one window, i.e. up to twice the
 * limit, which is exactly what trips a per-minute limiter.
 *
 * When the service answers 429 anyway (other agents share the account), `holdUntil` stops every
 * request of this runtime until the wait is over, so one rate-limit answer does not turn into a
 * burst of further ones. Waits are measured in the limit's window: `rateLimitBackoffMs`.
 */
import type { Clock } from "./clock";

export interface RequestBudgetOptions {
  requestsPerWindow: number;
  windowMs: number;
  clock: Clock;
}

/** The wait a request would need exceeds what the caller allowed. */
export class BudgetExceededError extends Error {
  override readonly name = "BudgetExceededError";
  constructor(readonly waitMs: number) {
    super(`the request budget has no room for ${Math.ceil(waitMs)} ms`);
  }
}

export class RequestBudget {
  readonly requestsPerWindow: number;
  readonly windowMs: number;
  private readonly clock: Clock;
  /** Start times of the latest requests, oldest first, at most `requestsPerWindow`. */
  private readonly starts: number[] = [];
  private heldUntil = 0;

  constructor(options: RequestBudgetOptions) {
    if (!Number.isInteger(options.requestsPerWindow) || options.requestsPerWindow < 1) {
      throw new RangeError(`requestsPerWindow must be a positive integer, got ${options.requestsPerWindow}`);
    }
    if (!(options.windowMs > 0)) throw new RangeError(`windowMs must be positive, got ${options.windowMs}`);
    this.requestsPerWindow = options.requestsPerWindow;
    this.windowMs = options.windowMs;
    this.clock = options.clock;
  }

  /** Milliseconds until a request may start now (0 when it may start at once). */
  waitMs(): number {
    const now = this.clock.now();
    const full = this.starts.length >= this.requestsPerWindow;
    const oldest = this.starts[this.starts.length - this.requestsPerWindow] ?? -Infinity;
    const ready = Math.max(this.heldUntil, full ? oldest + this.windowMs : now);
    return Math.max(0, ready - now);
  }

  /**
   * Waits for room and records one request. Throws BudgetExceededError, without waiting, when the
   * room is further away than `maxWaitMs`. Returns the time waited; `onWait` hears each wait.
   */
  async take(maxWaitMs: number, onWait?: (ms: number) => void): Promise<number> {
    let waited = 0;
    for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) {
      // Another call of this runtime may take the room while this one sleeps: re-check after.
      if (waited + wait > maxWaitMs) throw new BudgetExceededError(waited + wait);
      onWait?.(wait);
      await this.clock.sleep(wait);
      waited += wait;
    }
    this.starts.push(this.clock.now());
    if (this.starts.length > this.requestsPerWindow) this.starts.splice(0, this.starts.length - this.requestsPerWindow);
    return waited;
  }

  /** No request starts before `time` (after a 429: the service asked everyone to back off). */
  holdUntil(time: number): void {
    this.heldUntil = Math.max(this.heldUntil, time);
  }
}

/**
 * The wait after the n-th consecutive 429 (1-based) when the service gave no hint. A per-minute
 * limit (`windowLimit`, Workers AI 3021) clears only when our own requests leave the window, so it
 * waits one whole window; a capacity refusal (3040) may clear sooner, so it waits a quarter of the
 * window, doubling up to the whole window (15 s, 30 s, 60 s … for a per-minute limit). `jitter` in
 * [0, 1) lengthens the wait by up to a quarter, never shortens it, so agents refused together do
 * not return together and no wait ends before the window has rolled.
 */
export function rateLimitBackoffMs(attempt: number, windowMs: number, jitter: number, windowLimit: boolean): number {
  const base = windowLimit ? windowMs : Math.min(windowMs, (windowMs / 4) * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + 0.25 * Math.min(Math.max(jitter, 0), 1)));
}
