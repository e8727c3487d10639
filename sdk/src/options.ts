/**
 * The options of a client and of one call: types only, so the generated operations can name them
 * without importing the HTTP core that imports them back.
 */
/** What the client calls to send a request: the platform's `fetch`, or any function like it. */
export type FetchLike = (request: Request) => Promise<Response>;

export interface ClientOptions {
  /** Where the API is, e.g. `http://127.0.0.1:8787` (a path prefix is kept). */
  baseUrl: string;
  /** The API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Defaults to the global `fetch`. In a Worker, a service binding's `fetch` works too. */
  fetch?: FetchLike;
  /** Milliseconds one attempt may take (0: no limit). Default 60 000: above the API's longest wait (30 s). */
  timeoutMs?: number;
  /** Retries of 429, 503, lost connections and timeouts (README, "Retrying"). */
  retry?: Partial<RetryPolicy>;
  /** Extra headers on every request. */
  headers?: Readonly<Record<string, string>>;
}

export interface RequestOptions {
  /** Aborts the call, retries and waits included; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
  /** For writes: the Idempotency-Key to send. Without one, the client makes one per call (so its retries are safe). */
  idempotencyKey?: string;
  /** Overrides the client's number of retries for this call. */
  retries?: number;
}

export interface RetryPolicy {
  /** Attempts after the first (0: never retry). */
  retries: number;
  /** The first backoff delay; doubled on each attempt. */
  baseDelayMs: number;
  /** No single wait is longer than this, whatever Retry-After says. */
  maxDelayMs: number;
}
