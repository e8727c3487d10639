/**
 * Retrying model calls (docs/design.md §6, §8): a call that throws is retried up to `maxRetries` times
 * with exponential backoff. Only then does the caller degrade (keep content, fall back to the local
 * model): one flaky answer must not change what the memory holds.
 */

export interface RetryPolicy {
  maxRetries: number;
  /** Delay before retry n (1-based). */
  delayMs: (retry: number) => number;
  sleep: (ms: number) => Promise<void>;
}

/** 50 ms, 100 ms, 200 ms … capped at 2 s: 15 retries take under 25 s in the worst case. */
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

export async function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= policy.maxRetries; attempt++) {
    if (attempt > 0) await policy.sleep(policy.delayMs(attempt));
    try {
      return await call();
    } catch (err) {
      lastError = err;
    }
  }
  throw new RetriesExhaustedError(policy.maxRetries + 1, lastError);
}
