/**
 * When and how long to wait before trying a request again (README, "Retrying"): 429 and 503 after
 * the `Retry-After` the server sent, a lost connection or a timeout with exponential backoff and
 * full jitter. A write is retried only when it carries an Idempotency-Key, so that a retry of a
 * write whose answer was lost can never apply it twice; the client gives every write one.
 */
import { ConnectionError, MemoryApiError, TimeoutError } from "./errors.js";
import type { RetryPolicy } from "./options.js";

export type { RetryPolicy };

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Statuses that mean "not done, try again later". */
const RETRY_STATUSES = new Set([429, 503]);

/**
 * How long to wait before attempt `attempt + 1` after `error`, or undefined when it must not be
 * retried. `safe`: the request is a read or a write with an Idempotency-Key.
 */
export function retryDelay(error: unknown, attempt: number, policy: RetryPolicy, safe: boolean, random = Math.random): number | undefined {
  if (attempt >= policy.retries) return undefined;
  const backoff = () => Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * random();
  if (error instanceof MemoryApiError) {
    if (!RETRY_STATUSES.has(error.status) || !safe) return undefined;
    // A quota that frees up later than the longest wait (a daily quota): retrying sooner cannot succeed.
    if (error.code === "quota_exceeded" && (error.retryAfterMs ?? Infinity) > policy.maxDelayMs) return undefined;
    return error.retryAfterMs !== undefined ? Math.min(policy.maxDelayMs, error.retryAfterMs) : backoff();
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) return safe ? backoff() : undefined;
  return undefined;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
