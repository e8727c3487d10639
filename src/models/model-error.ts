/**
 * The error a provider throws for one failed model call, saying whether trying the same call again
 * can help. Retrying costs a paid call and time, so only failures that can change on retry (a
 * timeout, a dropped connection) are retried; a context window exceeded, a deterministic
 * temperature-0 answer that failed validation or a spent rate-limit budget go to the fallback at
 * once (docs/design.md, "Robustness promises"). Errors of any other type are treated as transient.
 */
export abstract class ModelCallError extends Error {
  /** A short stable name of the failure (e.g. "context_exceeded"), for logs and counters. */
  abstract readonly code: string;
  abstract readonly retryable: boolean;
}

/** Whether `err` may go away if the same call is made again. */
export function isRetryable(err: unknown): boolean {
  return !(err instanceof ModelCallError) || err.retryable;
}
