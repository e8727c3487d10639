/**
 * Retrying model calls (docs/design.md, "Compression", "Models"): a call that throws is retried up to `maxRetries` times
 * with exponential backoff, but only when the failure can change on retry (model-error.ts): a
 * context window exceeded or a deterministic temperature-0 answer that failed validation would
 * fail identically and cost a paid call each time, so it ends the attempts at once. Only then does
 * the caller degrade (keep content, fall back to the local model). Rate limits are not handled
 * here: the provider waits them out in the limit's own window (workers-ai/throttled-ai.ts).
 */
import { isRetryable } from "./model-error";

export interface RetryPolicy {
  maxRetries: number;
  /** Delay before retry n (1-based). */
  delayMs: (retry: number) => number;
  sleep: (ms: number) => Promise<void>;
}

/** 50 ms, 100 ms, 200 ms … capped at 2 s: for transient failures (a dropped connection, a timeout). */
export function backoffMs(retry: number): number {
  return Math.min(2_000, 50 * 2 ** (retry - 1));
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function retryPolicy(maxRetries: number, sleep: (ms: number) => Promise<void> = realSleep): RetryPolicy {
  return { maxRetries, delayMs: backoffMs, sleep };
}

export class RetriesExhaustedError extends Error {
  override readonly name = "RetriesExhaustedError";
  constructor(
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(`model call failed after ${attempts} attempt(s): ${lastError instanceof Error ? lastError.message : String(lastError)}`, {
      cause: lastError,
    });
  }
}

/**
 * Runs `call` until it succeeds, fails with an error that cannot change on retry (thrown as is),
 * or has failed 1 + maxRetries times (RetriesExhaustedError).
 */
export async function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= policy.maxRetries; attempt++) {
    if (attempt > 0) await policy.sleep(policy.delayMs(attempt));
    try {
      return await call();
    } catch (err) {
      if (!isRetryable(err)) throw err;
      lastError = err;
    }
  }
  throw new RetriesExhaustedError(policy.maxRetries + 1, lastError);
}
