/** Shared test helpers: API calls with the development key, fresh agent ids, queue waits. */
import { env, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { expect } from "vitest";
import { agentStub } from "../src/agent/naming";
import { DEV_TENANT } from "../src/http/principal";

export const DEV_KEY = "dev-key-local-only";
const BASE = "http://localhost";

let counter = 0;
/** A new agent id for each test (storage is shared by the tests of one file). */
export function freshAgent(prefix = "agent"): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  rawBody?: string;
  /** A body of raw bytes (not necessarily UTF-8). */
  rawBytes?: Uint8Array;
  /** A streamed body (no Content-Length). */
  rawStream?: ReadableStream<Uint8Array>;
  key?: string | null;
  headers?: Record<string, string>;
}

export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== null) headers.Authorization = `Bearer ${options.key ?? DEV_KEY}`;
  let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined;
  if (options.rawStream !== undefined) body = options.rawStream;
  else if (options.rawBytes !== undefined) body = options.rawBytes;
  else if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers["Content-Type"]) headers["Content-Type"] = "application/json";
  return SELF.fetch(`${BASE}${path}`, { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, body });
}

/** The operator secret vitest.workers.config.ts gives the Worker: the admin API's credential in tests. */
export const OPERATOR_SECRET: string = (env as { OPERATOR_SECRET?: string }).OPERATOR_SECRET ?? "";

/** A call to the admin API (/v1/admin/…) with the operator secret. */
export function operatorCall(path: string, options: Omit<CallOptions, "key"> = {}): Promise<Response> {
  return call(path, { ...options, key: null, headers: { Authorization: `Bearer ${OPERATOR_SECRET}`, ...options.headers } });
}

/** Revokes a key through the admin API (so the Worker's own key cache forgets it at once). */
export async function revokeByKey(key: string): Promise<void> {
  const res = await operatorCall("/v1/admin/keys/revoke", { body: { key } });
  expect(res.status).toBe(200);
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export interface Msg {
  role: "user" | "assistant" | "system";
  content: string;
  name?: string;
  id?: string;
  timestamp?: number;
}

/** Remembers and waits for the task to finish; returns the finished task. */
export async function rememberAndWait(agentId: string, messages: Msg[]): Promise<TaskView> {
  const res = await call(`/v1/agents/${agentId}/remember`, { body: { messages } });
  expect(res.status).toBe(202);
  const { task_id } = await json<{ task_id: string }>(res);
  return waitTask(agentId, task_id);
}

export interface TaskView {
  task_id: string;
  status: string;
  result: Record<string, unknown> | null;
  error: string | null;
}

export async function waitTask(agentId: string, taskId: string): Promise<TaskView> {
  const res = await call(`/v1/agents/${agentId}/tasks/${taskId}?wait_ms=30000`);
  expect(res.status).toBe(200);
  const task = await json<TaskView>(res);
  expect(task.status, JSON.stringify(task)).toBe("done");
  return task;
}

export async function recallText(agentId: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(`/v1/agents/${agentId}/recall`, { body });
  expect(res.status).toBe(200);
  return res.text();
}

export interface RecallItemView {
  type: "memory" | "forgotten";
  node_id?: number;
  content?: string;
  phrase: string;
  source_message_ids?: string[];
  depth?: number;
  scores: Record<string, number>;
}

export async function recallJson(agentId: string, body: Record<string, unknown>) {
  const res = await call(`/v1/agents/${agentId}/recall`, { body: { ...body, format: "json" } });
  expect(res.status).toBe(200);
  return json<{ items: RecallItemView[]; start_nodes: number; reached_nodes: number }>(res);
}

export function stubOf(agentId: string, tenantId = DEV_TENANT) {
  return agentStub(env, { tenantId, agentId });
}

/**
 * Runs the agent's alarms until none is due (none scheduled, or only one for later work: an
 * expiry), then waits until its queue is idle (a real alarm may have taken over a time-sliced
 * cycle meanwhile). Returns the alarms run here.
 */
export async function drainAlarms(agentId: string, max = 10_000): Promise<number> {
  const stub = stubOf(agentId);
  let runs = 0;
  const due = () =>
    runInDurableObject(stub, async (_instance, state) => {
      const at = await state.storage.getAlarm();
      return at !== null && at <= Date.now() + 10_000;
    });
  while (runs < max && (await due()) && (await runDurableObjectAlarm(stub))) runs += 1;
  const res = await call(`/v1/agents/${agentId}/stats?wait_ms=30000`);
  const stats = (await res.json()) as { queue: { queued: number; running: number } };
  expect(stats.queue, "the agent's queue did not become idle").toMatchObject({ queued: 0, running: 0 });
  return runs;
}

/**
 * The agent's registry id (undefined before its first write). Not the key of its rows: those live
 * in the agent's own D1 shard under its key there (agentRows).
 */
export async function agentUid(agentId: string, tenantId = DEV_TENANT): Promise<number | undefined> {
  const row = await env.DB.prepare("SELECT id FROM agents WHERE tenant_id = ? AND agent_id = ?")
    .bind(tenantId, agentId)
    .first<{ id: number }>();
  return row?.id;
}

/**
 * Where a registered agent's rows are: its D1 shard (the local configuration has two, DB and
 * DB_2) and its key there (the `agent` column, and its full-text rowid range).
 */
export async function agentRows(agentId: string, tenantId = DEV_TENANT): Promise<{ db: D1Database; key: number; shard: string }> {
  const row = await env.DB.prepare(
    "SELECT id, d1_shard AS shard, coalesce(d1_key, id) AS key FROM agents WHERE tenant_id = ? AND agent_id = ?",
  )
    .bind(tenantId, agentId)
    .first<{ id: number; shard: string; key: number }>();
  if (!row) throw new Error(`agent ${tenantId}:${agentId} is not registered`);
  const db = row.shard === "DB" ? env.DB : row.shard === "DB_2" ? env.DB_2 : row.shard === "DB_EU" ? env.DB_EU : undefined;
  if (!db) throw new Error(`agent ${tenantId}:${agentId} is on ${row.shard}, not a shard of the local configuration`);
  return { db, key: row.key, shard: row.shard };
}
