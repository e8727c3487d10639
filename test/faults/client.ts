/**
 * HTTP to the API as a client that survives server crashes: every write carries an
 * `Idempotency-Key`, and a request whose answer never came (the connection was refused or cut
 * because the server was killed, or wrangler's proxy answered a 5xx without the API's error
 * envelope while it was starting) is sent again, with the same key, once the server is up again.
 * The API promises that such a retry applies nothing twice (docs/design.md §7, Idempotency): the
 * suite checks that promise, it does not rely on it.
 *
 * Every answer is parsed with zod; an unexpected status fails the run.
 */
import type { z } from "zod";
import type { KillableServer } from "./server";

export const DEV_API_KEY = "dev-key-local-only";

/** A request without an answer after this long fails the run (the API waits at most 30 s). */
const REQUEST_TIMEOUT_MS = 120_000;
/** Re-sends of one request while the server is up (5xx from the proxy, a cut connection). */
const MAX_SENDS_WHILE_UP = 5;

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

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface SendOptions {
  body?: unknown;
  /** The Idempotency-Key header (every write of the suite has one). */
  key?: string;
  /** Statuses that count as an answer; 200 by default. */
  expect?: readonly number[];
}

export interface Answer<T> {
  status: number;
  value: T;
  /** Sends it took (1 unless an answer was lost). */
  sends: number;
  /** The kill epochs in which a send of this request lost its answer (empty: answered the first time). */
  lostIn: number[];
}

/** What happened to requests: the suite's summary reports these. */
export interface ClientCounts {
  requests: number;
  /** Sends whose answer was lost to a kill (the request may or may not have been applied). */
  lostToKill: number;
  /** Re-sends while the server was up (proxy 5xx, a connection cut without a kill). */
  resentWhileUp: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The API's own error envelope: `{"error":{"code":…}}`. A 5xx without it came from the tooling. */
function isApiError(text: string): boolean {
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === "object" && json !== null && "error" in json;
  } catch {
    return false;
  }
}

export class FaultClient {
  readonly counts: ClientCounts = { requests: 0, lostToKill: 0, resentWhileUp: 0 };

  constructor(readonly server: KillableServer) {}

  async send<T>(method: Method, path: string, schema: z.ZodType<T>, options: SendOptions = {}): Promise<Answer<T>> {
    this.counts.requests += 1;
    const lostIn: number[] = [];
    let sendsWhileUp = 0;
    for (let sends = 1; ; sends += 1) {
      await this.server.whenUp();
      const epoch = this.server.epoch;
      let status: number;
      let text: string;
      try {
        // Uncompressed answers: the local runtime finishes a gzip-encoded answer only after the
        // agent's drain that its request started, so a 202 would reach us after the work it queued
        // (docs/architecture.md, "Local runtime"), and kills meant to land inside it would miss.
        const headers: Record<string, string> = { authorization: `Bearer ${DEV_API_KEY}`, "accept-encoding": "identity" };
        if (options.body !== undefined) headers["content-type"] = "application/json";
        if (options.key !== undefined) headers["idempotency-key"] = options.key;
        const init: RequestInit = { method, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
        if (options.body !== undefined) init.body = JSON.stringify(options.body);
        const res = await fetch(`${this.server.url}${path}`, init);
        status = res.status;
        text = await res.text();
      } catch (e) {
        if (this.server.epoch !== epoch || !this.server.running) {
          // Killed while this request was out: its answer is lost, send it again once up.
          this.counts.lostToKill += 1;
          lostIn.push(epoch);
          continue;
        }
        if (e instanceof Error && e.name === "TimeoutError") throw new Error(`${method} ${path}: no answer in ${REQUEST_TIMEOUT_MS} ms`);
        // A connection cut without a kill (a stale pooled socket after a restart): send again.
        if ((sendsWhileUp += 1) >= MAX_SENDS_WHILE_UP) throw e;
        this.counts.resentWhileUp += 1;
        await sleep(100);
        continue;
      }
      if (status >= 500 && !isApiError(text)) {
        // wrangler's proxy, not the API: it lost its runtime (a kill, or a start still under way).
        if (this.server.epoch === epoch && this.server.running) {
          if ((sendsWhileUp += 1) >= MAX_SENDS_WHILE_UP) throw new ApiError(method, path, status, text);
          this.counts.resentWhileUp += 1;
          await sleep(200);
        } else {
          this.counts.lostToKill += 1;
          lostIn.push(epoch);
        }
        continue;
      }
      if (!(options.expect ?? [200]).includes(status)) throw new ApiError(method, path, status, text);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new ApiError(method, path, status, `answer is not JSON: ${text}`);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new ApiError(method, path, status, `unexpected answer (${parsed.error.message}): ${text}`);
      return { status, value: parsed.data, sends, lostIn };
    }
  }
}
