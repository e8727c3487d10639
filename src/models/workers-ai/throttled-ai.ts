/**
 * The AI binding behind the agent's request budget (rate/request-budget.ts). Every request first
 * takes room in the budget; a 429 from Workers AI (3021 per-minute limit, 3040 capacity) holds the
 * whole budget for the service's retry hint or a backoff measured in the limit's window (a whole
 * window for the per-minute limit), then the same request is sent again. Waiting is not a failure and does not use the caller's retries; it
 * is bounded per call by `maxWaitMs` (a recall cannot wait a minute, a queued remember can), and
 * past that the call fails with `rate_limited`, which is not retried: the fallback answers.
 * Every other failure is classified once here (binding-errors.ts) and thrown.
 *
 * With `permits` (the account's fair share, ../rate/fair-share.ts), a call also waits for a
 * permit of the account's coordinator after its room in the agent's budget, within the same
 * bound: the account's limit is then shared between tenants instead of taken by whoever asks
 * most, and 429s become the exception the hold above answers.
 */
import { type Clock } from "../rate/clock";
import { BudgetExceededError, rateLimitBackoffMs, type RequestBudget } from "../rate/request-budget";
import type { AiBinding } from "./ai-client";
import { classifyBindingError } from "./binding-errors";
import { WorkersAiError } from "./workers-ai-error";

/** Workers AI's internal code for "inference request per min rate reached". */
const PER_MINUTE_LIMIT = 3021;

/** The account's permits for a call (the fair-share coordinator): true when the call may go, false when none came within `maxWaitMs`. */
export interface CallPermits {
  acquire(maxWaitMs: number): Promise<boolean>;
}

export interface ThrottleOptions {
  budget: RequestBudget;
  clock: Clock;
  permits?: CallPermits;
  /** Jitter source in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

export interface ThrottledRunOptions {
  /** Longest this call may wait in total, for room in the budget and after 429 answers. */
  maxWaitMs: number;
  /** Hears each wait, in milliseconds (reported as the agent's rate-limit waits). */
  onWait?: (ms: number) => void;
}

export class ThrottledAi {
  readonly budget: RequestBudget;
  private readonly clock: Clock;
  private readonly permits: CallPermits | undefined;
  private readonly random: () => number;

  constructor(
    private readonly ai: AiBinding,
    options: ThrottleOptions,
  ) {
    this.budget = options.budget;
    this.clock = options.clock;
    this.permits = options.permits;
    this.random = options.random ?? Math.random;
  }

  async run(model: string, inputs: Record<string, unknown>, options: ThrottledRunOptions): Promise<unknown> {
    let waited = 0;
    for (let refusals = 1; ; refusals++) {
      waited += await this.take(model, options.maxWaitMs - waited, options.onWait);
      let error: WorkersAiError;
      try {
        return await this.ai.run(model, inputs);
      } catch (err) {
        error = classifyBindingError(model, err);
      }
      if (error.code !== "rate_limited") throw error;
      const windowLimit = error.internalCode === PER_MINUTE_LIMIT;
      const wait = error.retryAfterMs ?? rateLimitBackoffMs(refusals, this.budget.windowMs, this.random(), windowLimit);
      this.budget.holdUntil(this.clock.now() + wait);
      if (waited + wait > options.maxWaitMs) {
        throw new WorkersAiError("rate_limited", `${error.message} (not waiting ${wait} ms more after ${waited} ms)`, {
          cause: error,
          internalCode: error.internalCode,
          retryAfterMs: wait,
        });
      }
    }
  }

  private async take(model: string, maxWaitMs: number, onWait?: (ms: number) => void): Promise<number> {
    let waited: number;
    try {
      waited = await this.budget.take(maxWaitMs, onWait);
    } catch (err) {
      if (!(err instanceof BudgetExceededError)) throw err;
      throw new WorkersAiError("rate_limited", `${model}: the agent's request budget has no room within ${Math.max(0, maxWaitMs)} ms`, {
        cause: err,
        retryAfterMs: err.waitMs,
      });
    }
    if (!this.permits) return waited;
    const started = this.clock.now();
    const granted = await this.permits.acquire(Math.max(0, maxWaitMs - waited));
    const permitWait = this.clock.now() - started;
    if (permitWait > 0) onWait?.(permitWait);
    if (!granted)
      throw new WorkersAiError(
        "rate_limited",
        `${model}: the account's fair share gave no permit within ${Math.max(0, maxWaitMs - waited)} ms`,
      );
    return waited + permitWait;
  }
}
