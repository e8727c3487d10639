/**
 * The page's only way to the network: the memory API on the page's own origin. Every request is a
 * relative `/v1/...` URL, so the API key (an Authorization header, never a URL or a cookie) can only
 * go where the page came from; answers are parsed with the schemas before anyone reads them.
 */
import type * as z from "zod/mini";
import {
  AgentListSchema,
  CompressAcceptedSchema,
  ConfigSchema,
  ContextBlockSchema,
  ErrorEnvelopeSchema,
  FocusSchema,
  HistorySchema,
  LinkCreatedSchema,
  MemoryCreatedSchema,
  MemoryDeletedSchema,
  MemoryUpdatedSchema,
  NodeViewSchema,
  PendingSchema,
  RecallJsonSchema,
  SearchResponseSchema,
  StatsSchema,
  AgentDeletedSchema,
  TaskStatusSchema,
  type AgentDeleted,
  type AgentList,
  type ConfigView,
  type ContextBlock,
  type FocusView,
  type History,
  type LinkCreated,
  type MemoryCreated,
  type MemoryDeleted,
  type MemoryUpdated,
  type NodeView,
  type RecallJson,
  type SearchResponse,
  type StatsView,
} from "./schemas";
import { NetworkSnapshot, SnapshotError } from "./snapshot";

/** An answer that is not what the page asked for: an API error envelope, a network failure, a malformed body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The envelope's `details` (e.g. the candidates of an ambiguous link end), unparsed. */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** One line for people: "unauthorized: unknown or revoked API key (401)". */
  describe(): string {
    return this.status > 0 ? `${this.code}: ${this.message} (HTTP ${this.status})` : `${this.code}: ${this.message}`;
  }
}

export interface RecallParams {
  keywords: string[];
  query?: string;
  relations: string[];
  depth?: number;
  limit?: number;
  start: "hybrid" | "focus";
  locale: "zh" | "en";
}

export interface ContextParams {
  query?: string;
  budget_tokens: number;
  include: ("memories" | "episodes" | "profile" | "traces")[];
  locale: "zh" | "en";
}

export interface SearchParams {
  query: string;
  mode: "keyword" | "vector" | "hybrid";
  top_k: number;
  kinds: string[];
}

/** An end of a link: a node id, or a description the agent resolves by its own search. */
export type MemoryRef = number | string;

export interface LinkParams {
  source: MemoryRef;
  target: MemoryRef;
  relation: string;
  strength?: number;
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Task statuses read while following a write that answered 202 (each waits up to 30 s). */
const TASK_WAITS = 10;

/** A fresh Idempotency-Key per user action: a retried request can never apply twice. */
export function idempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `web-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export class ApiClient {
  constructor(
    private readonly key: string,
    private readonly fetchFn: Fetch = (input, init) => fetch(input, init),
  ) {}

  listAgents(cursor: string | null, limit = 50): Promise<AgentList> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set("cursor", cursor);
    return this.json("GET", `/v1/agents?${query}`, AgentListSchema);
  }

  /**
   * Deletes the agent: every memory, link, index entry, vector and queued task. `deleted: false`:
   * it took longer than the API waits (its task finishes it).
   */
  deleteAgent(agent: string): Promise<AgentDeleted> {
    return this.json("DELETE", agentPath(agent), AgentDeletedSchema, undefined, idempotencyKey());
  }

  focus(agent: string): Promise<FocusView> {
    return this.json("GET", `${agentPath(agent)}/focus`, FocusSchema);
  }

  /** The node with its links, or null when it no longer exists (forgotten, or never did). */
  async node(agent: string, nodeId: number): Promise<NodeView | null> {
    try {
      return await this.json("GET", `${agentPath(agent)}/nodes/${nodeId}`, NodeViewSchema);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  }

  /** The whole network at one moment (GET export), for re-reading what is shown in one request. */
  async network(agent: string): Promise<NetworkSnapshot> {
    const path = `${agentPath(agent)}/export`;
    const res = await this.send("GET", path);
    try {
      return NetworkSnapshot.parse(await res.text());
    } catch (err) {
      if (err instanceof SnapshotError) throw new ApiError(res.status, "bad_response", `GET ${path}: ${err.message}`);
      throw err;
    }
  }

  stats(agent: string, waitMs = 0): Promise<StatsView> {
    const wait = waitMs > 0 ? `?wait_ms=${waitMs}` : "";
    return this.json("GET", `${agentPath(agent)}/stats${wait}`, StatsSchema);
  }

  config(agent: string): Promise<ConfigView> {
    return this.json("GET", `${agentPath(agent)}/config`, ConfigSchema);
  }

  updateConfig(agent: string, patch: Record<string, number | boolean>): Promise<ConfigView> {
    return this.json("PUT", `${agentPath(agent)}/config`, ConfigSchema, patch);
  }

  async compress(agent: string, cycles: number): Promise<string[]> {
    return (await this.json("POST", `${agentPath(agent)}/compress`, CompressAcceptedSchema, { cycles })).task_ids;
  }

  /** The recall exactly as the agent receives it: the plain-text body, untouched. */
  async recallText(agent: string, params: RecallParams): Promise<string> {
    const res = await this.send("POST", `${agentPath(agent)}/recall`, { ...params, format: "text" });
    return res.text();
  }

  recallJson(agent: string, params: RecallParams): Promise<RecallJson> {
    return this.json("POST", `${agentPath(agent)}/recall`, RecallJsonSchema, { ...params, format: "json" });
  }

  /** The context block a model would get in front of its prompt (JSON: its text and node ids). */
  context(agent: string, params: ContextParams): Promise<ContextBlock> {
    return this.json("POST", `${agentPath(agent)}/context`, ContextBlockSchema, { ...params, format: "json" });
  }

  search(agent: string, params: SearchParams): Promise<SearchResponse> {
    return this.json("POST", `${agentPath(agent)}/search`, SearchResponseSchema, params);
  }

  /** Memory operations (DESIGN §11). Each write waits for its task; a 202 is followed to its end. */
  addMemory(agent: string, content: string): Promise<MemoryCreated> {
    return this.write("POST", `${agentPath(agent)}/memories`, MemoryCreatedSchema, { content });
  }

  /** The new content becomes a new version that supersedes this one (its links move to it). */
  updateMemory(agent: string, nodeId: number, content: string): Promise<MemoryUpdated> {
    return this.write("PATCH", `${agentPath(agent)}/memories/${nodeId}`, MemoryUpdatedSchema, { content });
  }

  /** Forgets a memory now (links into it stay as traces); `purge` removes every trace as well. */
  deleteMemory(agent: string, nodeId: number, purge: boolean): Promise<MemoryDeleted> {
    const query = purge ? "?purge=true" : "";
    return this.write("DELETE", `${agentPath(agent)}/memories/${nodeId}${query}`, MemoryDeletedSchema);
  }

  link(agent: string, params: LinkParams): Promise<LinkCreated> {
    return this.write("POST", `${agentPath(agent)}/links`, LinkCreatedSchema, params);
  }

  /** The versions of a memory, oldest first. */
  history(agent: string, nodeId: number): Promise<History> {
    return this.json("GET", `${agentPath(agent)}/memories/${nodeId}/history`, HistorySchema);
  }

  private async write<S extends z.ZodMiniType>(method: string, path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    const res = await this.send(method, path, body, idempotencyKey());
    const data = await this.body(res, method, path);
    if (res.status !== 202) return this.parse(schema, data, res.status, method, path);
    const pending = this.parse(PendingSchema, data, res.status, method, path);
    return this.parse(schema, await this.followTask(path, pending.task_id), 200, method, path);
  }

  /** Waits for a queued write's task and returns its result (an outcome other than success is an error). */
  private async followTask(path: string, taskId: string): Promise<unknown> {
    const agent = path.split("/").slice(0, 4).join("/");
    for (let i = 0; i < TASK_WAITS; i += 1) {
      const task = await this.json("GET", `${agent}/tasks/${encodeURIComponent(taskId)}?wait_ms=30000`, TaskStatusSchema);
      if (task.status === "failed") throw new ApiError(500, "task_failed", task.error ?? `task ${taskId} failed`);
      if (task.status !== "done") continue;
      const outcome = task.result?.outcome;
      if (typeof outcome === "string" && !["linked", "updated", "forgotten"].includes(outcome)) {
        throw new ApiError(409, outcome, `task ${taskId} ended: ${outcome}`, task.result);
      }
      return task.result;
    }
    throw new ApiError(0, "timeout", `task ${taskId} is still queued: look again later`);
  }

  private async json<S extends z.ZodMiniType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
    idempotency?: string,
  ): Promise<z.infer<S>> {
    const res = await this.send(method, path, body, idempotency);
    return this.parse(schema, await this.body(res, method, path), res.status, method, path);
  }

  private async body(res: Response, method: string, path: string): Promise<unknown> {
    try {
      return await res.json();
    } catch {
      throw new ApiError(res.status, "bad_response", `${method} ${path} did not answer JSON`);
    }
  }

  private parse<S extends z.ZodMiniType>(schema: S, data: unknown, status: number, method: string, path: string): z.infer<S> {
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new ApiError(status, "bad_response", `${method} ${path} answered an unexpected shape`);
    return parsed.data;
  }

  /** Sends one request to the page's own origin; a non-2xx answer becomes an ApiError from its envelope. */
  private async send(method: string, path: string, body?: unknown, idempotency?: string): Promise<Response> {
    if (!path.startsWith("/v1/")) throw new Error(`refusing to send the API key outside /v1/: ${path}`);
    const headers: Record<string, string> = { Authorization: `Bearer ${this.key}`, Accept: "application/json, text/plain" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotency !== undefined) headers["Idempotency-Key"] = idempotency;
    let res: Response;
    try {
      res = await this.fetchFn(path, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        credentials: "omit",
        cache: "no-store",
        referrerPolicy: "no-referrer",
      });
    } catch {
      throw new ApiError(0, "network", "the API could not be reached (is the server running?)");
    }
    if (res.ok) return res;
    let envelope: unknown = null;
    try {
      envelope = await res.json();
    } catch {
      // not JSON: reported by status below
    }
    const parsed = ErrorEnvelopeSchema.safeParse(envelope);
    if (parsed.success) throw new ApiError(res.status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.details);
    throw new ApiError(res.status, "http_error", `${method} ${path} failed`);
  }
}

function agentPath(agent: string): string {
  return `/v1/agents/${encodeURIComponent(agent)}`;
}
