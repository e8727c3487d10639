/**
 * HTTP to the API as a client sees it: JSON in and out, the local development key (or a tenant's), every answer
 * checked against a zod schema, and the client-side wall time of each request (performance.now()
 * around the fetch and the reading of the body) for latency figures.
 *
 * Any status other than the expected ones fails loudly with the method, path and body, except where
 * a caller asks for `null` on 404 (the search endpoint, which may not exist yet).
 *
 * Stall guard, for reads only (recall, search): a read that has no answer after `hedgeAfterMs` is
 * sent again, and the first answer wins; its latency counts from the first send, stall included. It
 * exists because builds before cdc0450 could lose the queue's wake-up (a read arriving during the
 * drain's tail waited for the next wake-up, possibly forever), and because wrangler dev's proxy
 * sometimes answers a read with a 503 "restarted mid-request" although the runtime did not restart;
 * such a read is re-sent at once. Reads change nothing, so answers are unaffected. Every re-send is
 * counted and reported with the results: a stall is visible, never hidden.
 */
import type { z } from "zod";

export const DEV_API_KEY = "dev-key-local-only";

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} → HTTP ${status}: ${body.slice(0, 500)}`);
  }
}

export interface Timed<T> {
  value: T;
  /** Client-side wall time of the request, ms. */
  ms: number;
}

export type Method = "GET" | "POST" | "PUT";

export interface RequestOptions {
  body?: unknown;
  /** Statuses that count as success; 200 by default. */
  expect?: readonly number[];
  /** For idempotent reads: send again when no answer came after this long (see the stall guard). */
  hedgeAfterMs?: number;
  /** Extra request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
}

/** Sends of one read at most (the first and three re-sends). */
const MAX_SENDS = 4;
/** wrangler's answer when a request was cut off inside the runtime. */
const RESTARTED = /restarted mid-request/;
/** A request without any answer after this long fails the run. */
const REQUEST_TIMEOUT_MS = 5 * 60_000;

interface Sent {
  status: number;
  text: string;
  ms: number;
}

export class HttpClient {
  /** Re-sends by the stall guard, per "METHOD /v1/agents/:id/<endpoint> (why)", agent id elided. */
  readonly stalls = new Map<string, number>();

  /** `apiKey`: another tenant's key than the development key's (the fair-share run's tenants). */
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string = DEV_API_KEY,
  ) {}

  private countStall(key: string): void {
    this.stalls.set(key, (this.stalls.get(key) ?? 0) + 1);
  }

  /** `send`, with the stall guard when `hedgeAfterMs` is given (reads only). */
  private sendGuarded(method: Method, path: string, options: RequestOptions): Promise<Sent> {
    const hedge = options.hedgeAfterMs;
    if (hedge === undefined) return this.send(method, path, options.body, options.headers);
    const started = performance.now();
    const endpoint = `${method} ${path.replace(/^\/v1\/agents\/[^/]+/, "/v1/agents/:id").replace(/\?.*$/, "")}`;
    return new Promise<Sent>((resolve, reject) => {
      let settled = false;
      let sends = 0;
      let pending = 0;
      let last: Sent | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (f: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
      };
      const fire = (reason: "no answer" | "503"): void => {
        if (settled) return;
        if (sends >= MAX_SENDS) {
          // Out of re-sends: the last failure stands, or the pending sends' own timeouts decide.
          if (pending === 0) settle(() => (last ? resolve(last) : reject(new Error(`${endpoint}: no answer`))));
          return;
        }
        sends += 1;
        pending += 1;
        if (sends > 1) this.countStall(`${endpoint} (${reason})`);
        clearTimeout(timer);
        timer = setTimeout(() => fire("no answer"), hedge);
        this.send(method, path, options.body, options.headers).then(
          (r) => {
            pending -= 1;
            // A stranded request may also come back as wrangler's "restarted mid-request" 503.
            if (r.status === 503 && RESTARTED.test(r.text)) {
              last = { ...r, ms: performance.now() - started };
              fire("503");
              return;
            }
            settle(() => resolve({ ...r, ms: performance.now() - started }));
          },
          (e: unknown) => settle(() => reject(e)),
        );
      };
      fire("no answer");
    });
  }

  private async send(
    method: Method,
    path: string,
    body: unknown,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; text: string; ms: number }> {
    const headers: Record<string, string> = { ...extra, authorization: `Bearer ${this.apiKey}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const init: RequestInit = { method, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const started = performance.now();
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - started };
  }

  private parse<T>(method: Method, path: string, status: number, text: string, schema: z.ZodType<T>): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(method, path, status, `answer is not JSON: ${text}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ApiError(method, path, status, `unexpected answer (${parsed.error.message}): ${text}`);
    return parsed.data;
  }

  /** A request whose answer must have one of the expected statuses and match `schema`. */
  async request<T>(method: Method, path: string, schema: z.ZodType<T>, options: RequestOptions = {}): Promise<Timed<T>> {
    const { status, text, ms } = await this.sendGuarded(method, path, options);
    if (!(options.expect ?? [200]).includes(status)) throw new ApiError(method, path, status, text);
    return { value: this.parse(method, path, status, text, schema), ms };
  }

  /** Like `request`, but a 404 answers null: for endpoints that may not exist on this build. */
  async requestUnlessMissing<T>(
    method: Method,
    path: string,
    schema: z.ZodType<T>,
    options: RequestOptions = {},
  ): Promise<Timed<T> | null> {
    const { status, text, ms } = await this.sendGuarded(method, path, options);
    if (status === 404) return null;
    if (!(options.expect ?? [200]).includes(status)) throw new ApiError(method, path, status, text);
    return { value: this.parse(method, path, status, text, schema), ms };
  }
}
