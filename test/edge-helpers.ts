/**
 * Helpers for the tests of the HTTP edge: requests that SELF.fetch cannot build (a GET that carries a
 * body), a Worker whose D1 fails, the error envelope, and what an agent holds (to show that a
 * refused request wrote nothing).
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import worker from "../src";
import { ERROR_CODE_LIST, ERROR_STATUS, type ErrorCode } from "../src/http/errors";
import { agentRows, agentUid, DEV_KEY, stubOf } from "./helpers";

const BASE = "http://localhost";

/**
 * A request as the runtime hands one over from the network when a client sends a GET or HEAD
 * with a body (Transfer-Encoding: chunked, or Content-Length): the runtime's own Request
 * constructor refuses to build such a thing, so the body is supplied by the subclass. Whatever
 * rebuilds it with `new Request(request, {body})` meets the same TypeError as in production.
 */
export class IncomingWithBody extends Request {
  constructor(
    path: string,
    method: string,
    private readonly payload: string,
    headers: Record<string, string> = {},
  ) {
    super(`${BASE}${path}`, { method, headers: { "Transfer-Encoding": "chunked", ...headers } });
  }

  override get body(): ReadableStream<Uint8Array> {
    const bytes = new TextEncoder().encode(this.payload);
    return new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
  }
}

/** Calls the Worker's fetch handler directly, with the test environment or a changed one. */
export async function fetchWorker(request: Request, environment: Env = env): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, environment, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The test environment with a D1 whose every statement fails, as during a D1 outage. */
export function envWithFailingD1(): Env {
  const failing = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare" || property === "batch" || property === "exec") {
        return () => {
          throw new Error("D1_ERROR: Network connection lost.");
        };
      }
      return Reflect.get(target, property);
    },
  });
  return { ...env, DB: failing };
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}

export interface ErrorEnvelope {
  error: { code: string; message: string; details?: unknown };
}

function isEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error: unknown = value.error;
  if (typeof error !== "object" || error === null) return false;
  if (!("code" in error) || typeof error.code !== "string") return false;
  if (!("message" in error) || typeof error.message !== "string") return false;
  return Object.keys(error).every((k) => k === "code" || k === "message" || k === "details") && Object.keys(value).length === 1;
}

/**
 * Checks that an answer is the error envelope with the given status (and code): JSON, exactly
 * `{error: {code, message, details?}}`, a code from the closed list, a message. HEAD answers have
 * no body to check.
 */
export async function expectEnvelope(res: Response, status: number, code?: string, method = "GET"): Promise<ErrorEnvelope | undefined> {
  expect(res.status).toBe(status);
  if (method === "HEAD") return undefined;
  expect(res.headers.get("content-type") ?? "").toContain("application/json");
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`not JSON: ${text.slice(0, 200)}`);
  }
  if (!isEnvelope(body)) throw new Error(`not the error envelope: ${text.slice(0, 200)}`);
  expect(ERROR_CODE_LIST).toContain(body.error.code);
  if (code !== undefined) expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

/** A request with the development key (or none) to the Worker through SELF-like direct fetch. */
export function request(
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; key?: string | null } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.Authorization = `Bearer ${init.key ?? DEV_KEY}`;
  return new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, ...(init.body === undefined ? {} : { body: init.body }) });
}

/** Everything an agent holds that a write could change (see agentFootprint). */
export interface Footprint {
  stats: unknown;
  config: unknown;
  /** The agent's registry id in D1: null until its first write. */
  uid: number | null;
  rows: { nodes: number; links: number; fts: number } | null;
}

/**
 * Everything an agent holds that a write could change: its queue and counters, its parameters,
 * its registry entry and its rows in D1. Read without going through the HTTP layer, so reading it
 * changes nothing either. `waitIdleMs`: first wait (that long at most) until the agent's queue is idle.
 */
export async function agentFootprint(agentId: string, waitIdleMs = 0): Promise<Footprint> {
  const identity = { tenantId: "dev", agentId };
  const stub = stubOf(agentId);
  const stats = await stub.stats(identity, waitIdleMs);
  const config = await stub.config(identity);
  const uid = (await agentUid(agentId)) ?? null;
  // The agent's network lives on its shard, under its key there.
  const shard = uid === null ? null : await agentRows(agentId);
  const rows =
    shard === null
      ? null
      : await shard.db
          .prepare(
            `SELECT (SELECT count(*) FROM nodes WHERE agent = ?1) AS nodes, (SELECT count(*) FROM links WHERE agent = ?1) AS links,
                  (SELECT count(*) FROM nodes_fts WHERE rowid >= ?1 * 1073741824 AND rowid < (?1 + 1) * 1073741824) AS fts`,
          )
          .bind(shard.key)
          .first<{ nodes: number; links: number; fts: number }>();
  return { stats, config, uid, rows };
}

/** An agent that no request ever wrote to: no registry entry, nothing queued or done. */
export async function expectUntouched(agentId: string): Promise<void> {
  const footprint = await agentFootprint(agentId);
  expect(footprint.uid).toBeNull();
  expect(footprint.stats).toMatchObject({ queue: { queued: 0, running: 0, done: 0, failed: 0 }, nodes: { total: 0 } });
}

/**
 * Sends until a rate limit answers 429 (at most 2·limit + 2 tries), checking every other answer has
 * `status`: the refusal, after between `limit` and 2·limit served (Workers Rate Limiting counts in
 * fixed windows on the clock, so a loop may straddle one boundary).
 */
export async function untilRateLimited(send: () => Promise<Response>, limit: number, status: number): Promise<Response> {
  let served = 0;
  for (let i = 0; i < 2 * limit + 2; i++) {
    const res = await send();
    if (res.status === 429) {
      expect(served).toBeGreaterThanOrEqual(limit);
      expect(served).toBeLessThanOrEqual(2 * limit);
      return res;
    }
    expect(res.status).toBe(status);
    served += 1;
  }
  throw new Error(`no 429 in ${2 * limit + 2} requests`);
}
