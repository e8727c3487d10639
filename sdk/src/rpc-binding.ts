/**
 * The types of the memory's Workers RPC entrypoint (the server's MemoryEntrypoint), for a Worker
 * that binds to it (README, "Workers RPC"): `env.MEMORY: MemoryBinding`. Each method takes the
 * agent id first and resolves with a BindingResult: the operation's answer (the same as this
 * SDK's method of the same name) or the API's error. `unwrap` turns a result into the answer or
 * the typed error class of this SDK.
 */
import { ERROR_CLASSES, type MemoryApiError } from "./errors.js";
import type { ErrorCode, OperationTypes } from "./generated/operations.js";

/** JSON data: what RPC passes between Workers with its type intact. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface BindingError {
  /** The API's error code (the closed list of the OpenAPI document's `Error` schema). */
  code: ErrorCode;
  /** The HTTP status the REST endpoint answers the same refusal with. */
  status: number;
  message: string;
  /** As in the REST envelope: `{issues: [{in, path, message}]}` for validation errors, candidates for conflicts… */
  details?: JsonValue;
  /** queue_full, quota_exceeded and unavailable: wait this long before retrying. */
  retry_after_ms?: number;
}

export type BindingResult<T> = { ok: true; value: T } | { ok: false; error: BindingError };

/** For writes: the Idempotency-Key (a retry with the same key and arguments is not applied twice). */
export interface BindingCallOptions {
  idempotencyKey?: string;
}

type In<N extends keyof OperationTypes> = OperationTypes[N]["input"];
type Out<N extends keyof OperationTypes> = Promise<BindingResult<OperationTypes[N]["output"]>>;

/** The methods of the entrypoint: the SDK's agent methods, with the agent id first. */
export interface MemoryBinding {
  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const { task_id } = unwrap(await env.MEMORY.remember("assistant-1", { messages: [{ role: "user", content: "I moved to Porto in May." }] }, { idempotencyKey: "req-1" }));
   * ```
   */
  remember(agentId: string, input: In<"remember">, options?: BindingCallOptions): Out<"remember">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const { text } = unwrap(await env.MEMORY.recall("assistant-1", { query: "Where does Ines live?" }));
   * ```
   */
  recall(agentId: string, input?: In<"recall">): Out<"recall">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const { items } = unwrap(await env.MEMORY.searchMemories("assistant-1", { query: "Porto", mode: "keyword" }));
   * ```
   */
  searchMemories(agentId: string, input: In<"searchMemories">): Out<"searchMemories">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const { text } = unwrap(await env.MEMORY.getContext("assistant-1", { query: "Plan Ines's visit", budget_tokens: 600 }));
   * ```
   */
  getContext(agentId: string, input?: In<"getContext">): Out<"getContext">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const profile = unwrap(await env.MEMORY.getProfile("assistant-1"));
   * ```
   */
  getProfile(agentId: string, input?: In<"getProfile">): Out<"getProfile">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const { focus } = unwrap(await env.MEMORY.getFocus("assistant-1"));
   * ```
   */
  getFocus(agentId: string): Out<"getFocus">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const node = unwrap(await env.MEMORY.getMemoryNode("assistant-1", { node_id: 12 }));
   * ```
   */
  getMemoryNode(agentId: string, input: In<"getMemoryNode">): Out<"getMemoryNode">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const stats = unwrap(await env.MEMORY.getStats("assistant-1"));
   * ```
   */
  getStats(agentId: string, input?: In<"getStats">): Out<"getStats">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const task = unwrap(await env.MEMORY.getTask("assistant-1", { task_id: "tsk_1", wait_ms: 5_000 }));
   * ```
   */
  getTask(agentId: string, input: In<"getTask">): Out<"getTask">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const config = unwrap(await env.MEMORY.getConfig("assistant-1"));
   * ```
   */
  getConfig(agentId: string): Out<"getConfig">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * unwrap(await env.MEMORY.updateConfig("assistant-1", { decay_rate: 0.95 }));
   * ```
   */
  updateConfig(agentId: string, input: In<"updateConfig">, options?: BindingCallOptions): Out<"updateConfig">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const { task_ids } = unwrap(await env.MEMORY.compressMemories("assistant-1", { cycles: 2 }));
   * ```
   */
  compressMemories(agentId: string, input?: In<"compressMemories">, options?: BindingCallOptions): Out<"compressMemories">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const created = unwrap(await env.MEMORY.createMemory("assistant-1", { content: "Ines prefers tea." }, { idempotencyKey: "req-2" }));
   * ```
   */
  createMemory(agentId: string, input: In<"createMemory">, options?: BindingCallOptions): Out<"createMemory">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const memory12 = unwrap(await env.MEMORY.getMemory("assistant-1", { node_id: 12 }));
   * ```
   */
  getMemory(agentId: string, input: In<"getMemory">): Out<"getMemory">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const history = unwrap(await env.MEMORY.getMemoryHistory("assistant-1", { node_id: 12 }));
   * ```
   */
  getMemoryHistory(agentId: string, input: In<"getMemoryHistory">): Out<"getMemoryHistory">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const { items, next_cursor } = unwrap(await env.MEMORY.listMemories("assistant-1", { limit: 50 }));
   * ```
   */
  listMemories(agentId: string, input?: In<"listMemories">): Out<"listMemories">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * unwrap(await env.MEMORY.updateMemory("assistant-1", { node_id: 12, content: "Ines moved to Lisbon in June." }));
   * ```
   */
  updateMemory(agentId: string, input: In<"updateMemory">, options?: BindingCallOptions): Out<"updateMemory">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * unwrap(await env.MEMORY.deleteMemory("assistant-1", { node_id: 12, purge: true }));
   * ```
   */
  deleteMemory(agentId: string, input: In<"deleteMemory">, options?: BindingCallOptions): Out<"deleteMemory">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * unwrap(await env.MEMORY.linkMemories("assistant-1", { source: 12, target: 15, relation: "causes" }));
   * ```
   */
  linkMemories(agentId: string, input: In<"linkMemories">, options?: BindingCallOptions): Out<"linkMemories">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * unwrap(await env.MEMORY.unlinkMemories("assistant-1", { source: 12, target: 15, relation: "causes" }));
   * ```
   */
  unlinkMemories(agentId: string, input: In<"unlinkMemories">, options?: BindingCallOptions): Out<"unlinkMemories">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * unwrap(await env.MEMORY.reportFeedback("assistant-1", { node_ids: [12], used: true }));
   * ```
   */
  reportFeedback(agentId: string, input: In<"reportFeedback">, options?: BindingCallOptions): Out<"reportFeedback">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * unwrap(await env.MEMORY.mergeEntities("assistant-1", { node_id: 31, into: 7 }));
   * ```
   */
  mergeEntities(agentId: string, input: In<"mergeEntities">, options?: BindingCallOptions): Out<"mergeEntities">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const rebuilt = unwrap(await env.MEMORY.rebuildEpisodes("assistant-1"));
   * ```
   */
  rebuildEpisodes(agentId: string, options?: BindingCallOptions): Out<"rebuildEpisodes">;

  /**
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const answer = unwrap(await env.MEMORY.deleteAgent("assistant-1"));
   * ```
   */
  deleteAgent(agentId: string, options?: BindingCallOptions): Out<"deleteAgent">;

  /**
   * The agent's whole memory as JSON Lines (what GET /v1/agents/{agentId}/export streams).
   *
   * @example
   * ```ts
   * import { unwrap } from "@agent-memory/sdk";
   * const stream = unwrap(await env.MEMORY.exportAgent("assistant-1"));
   * const download = new Response(stream, { headers: { "Content-Type": "application/x-ndjson" } });
   * ```
   */
  exportAgent(agentId: string): Promise<BindingResult<ReadableStream<Uint8Array>>>;
}

/**
 * The answer of a binding call, or its error thrown as this SDK's typed class (QueueFullError…).
 *
 * @example
 * ```ts
 * import { unwrap, QueueFullError } from "@agent-memory/sdk";
 * try {
 *   const { text } = unwrap(await env.MEMORY.recall("assistant-1", { query: "Where does Ines live?" }));
 *   console.log(text);
 * } catch (error) {
 *   if (error instanceof QueueFullError) console.log("retry after", error.retryAfterMs);
 * }
 * ```
 */
export function unwrap<T>(result: BindingResult<T>): T {
  if (result.ok) return result.value;
  const { code, status, message, details, retry_after_ms } = result.error;
  const error: MemoryApiError = new ERROR_CLASSES[code]({ status, code, message, details, retryAfterMs: retry_after_ms });
  throw error;
}
