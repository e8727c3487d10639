/**
 * One operation call over HTTP: the request (bindCall), the key, an Idempotency-Key for writes,
 * a timeout per attempt, the caller's AbortSignal, retries (retry.ts), and the answer parsed or
 * turned into a typed error (errors.ts). Only `fetch`, `AbortController` and timers: it runs in
 * Workers, Node 20 and browsers alike.
 */
import { bindCall, type OperationSpec } from "./binding.js";
import { ConnectionError, errorFromAnswer, MemoryApiError, TimeoutError } from "./errors.js";
import type { ClientOptions, FetchLike, RequestOptions } from "./options.js";
import { DEFAULT_RETRY, retryDelay, sleep, type RetryPolicy } from "./retry.js";

export type { ClientOptions, FetchLike, RequestOptions };

export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * A random key: crypto.randomUUID where the platform offers it (browsers only in secure contexts).
 *
 * @example
 * ```ts
 * import { newIdempotencyKey } from "@agent-memory/sdk";
 * const idempotencyKey = newIdempotencyKey(); // one per logical write, reused by its retries
 * await agent.createMemory({ content: "Ines prefers tea." }, { idempotencyKey });
 * ```
 */
export function newIdempotencyKey(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c) c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class HttpCore {
  private readonly base: string;
  private readonly fetchImpl: FetchLike;
  private readonly policy: RetryPolicy;

  constructor(private readonly options: ClientOptions) {
    if (!options.baseUrl) throw new TypeError("baseUrl is required");
    this.base = options.baseUrl.replace(/\/+$/, "");
    // Called through a closure: a bare reference to window.fetch called as a method throws in browsers.
    this.fetchImpl = options.fetch ?? ((request) => fetch(request));
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** Calls one operation with its flat arguments; resolves with the parsed answer. */
  async call(
    spec: OperationSpec,
    agentId: string | undefined,
    input: Readonly<Record<string, unknown>> | undefined,
    options: RequestOptions = {},
  ): Promise<unknown> {
    const http = bindCall(spec, agentId, input ?? {});
    const policy = options.retries === undefined ? this.policy : { ...this.policy, retries: options.retries };
    const key = spec.write ? (options.idempotencyKey ?? (policy.retries > 0 ? newIdempotencyKey() : undefined)) : undefined;
    const headers: Record<string, string> = {
      Accept: "application/json",
      ...this.options.headers,
      Authorization: `Bearer ${this.options.apiKey}`,
    };
    if (key !== undefined) headers["Idempotency-Key"] = key;
    if (http.body !== undefined) headers["Content-Type"] = "application/json";
    const body = http.body === undefined ? undefined : JSON.stringify(http.body);
    const safe = !spec.write || key !== undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(`${this.base}${http.target}`, { method: http.method, headers, body }, options);
      } catch (error) {
        const delay = retryDelay(error, attempt, policy, safe);
        if (delay === undefined) throw error;
        await sleep(delay, options.signal);
      }
    }
  }

  private async attempt(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    options: RequestOptions,
  ): Promise<unknown> {
    const outer = options.signal;
    if (outer?.aborted) throw outer.reason;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    const onAbort = () => controller.abort(outer?.reason);
    outer?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort(new TimeoutError(`no answer within ${timeoutMs} ms`));
          }, timeoutMs)
        : undefined;
    try {
      const request = new Request(url, { ...init, ...(init.body === undefined ? {} : { body: init.body }), signal: controller.signal });
      const response = await this.fetchImpl(request);
      const text = await response.text();
      if (!response.ok) throw errorFromAnswer(response.status, response.headers, text);
      return parseAnswer(response, text);
    } catch (error) {
      if (error instanceof MemoryApiError) throw error;
      if (timedOut) throw new TimeoutError(`${init.method} ${url}: no answer within ${timeoutMs} ms`);
      if (outer?.aborted) throw outer.reason;
      throw new ConnectionError(`${init.method} ${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    }
  }
}

function parseAnswer(response: Response, text: string): unknown {
  if (text === "") return null;
  const type = response.headers.get("content-type") ?? "";
  return /\bjson\b/i.test(type) ? JSON.parse(text) : text;
}
