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
  remember(agentId: string, input: In<"remember">, options?: BindingCallOptions): Out<"remember">;
  recall(agentId: string, input?: In<"recall">): Out<"recall">;
  searchMemories(agentId: string, input: In<"searchMemories">): Out<"searchMemories">;
  getContext(agentId: string, input?: In<"getContext">): Out<"getContext">;
  getProfile(agentId: string, input?: In<"getProfile">): Out<"getProfile">;
  getFocus(agentId: string): Out<"getFocus">;
  getMemoryNode(agentId: string, input: In<"getMemoryNode">): Out<"getMemoryNode">;
  getStats(agentId: string, input?: In<"getStats">): Out<"getStats">;
  getTask(agentId: string, input: In<"getTask">): Out<"getTask">;
  getConfig(agentId: string): Out<"getConfig">;
  updateConfig(agentId: string, input: In<"updateConfig">, options?: BindingCallOptions): Out<"updateConfig">;
  compressMemories(agentId: string, input?: In<"compressMemories">, options?: BindingCallOptions): Out<"compressMemories">;
  createMemory(agentId: string, input: In<"createMemory">, options?: BindingCallOptions): Out<"createMemory">;
  getMemory(agentId: string, input: In<"getMemory">): Out<"getMemory">;
  getMemoryHistory(agentId: string, input: In<"getMemoryHistory">): Out<"getMemoryHistory">;
  listMemories(agentId: string, input?: In<"listMemories">): Out<"listMemories">;
  updateMemory(agentId: string, input: In<"updateMemory">, options?: BindingCallOptions): Out<"updateMemory">;
  deleteMemory(agentId: string, input: In<"deleteMemory">, options?: BindingCallOptions): Out<"deleteMemory">;
  linkMemories(agentId: string, input: In<"linkMemories">, options?: BindingCallOptions): Out<"linkMemories">;
  unlinkMemories(agentId: string, input: In<"unlinkMemories">, options?: BindingCallOptions): Out<"unlinkMemories">;
  reportFeedback(agentId: string, input: In<"reportFeedback">, options?: BindingCallOptions): Out<"reportFeedback">;
  mergeEntities(agentId: string, input: In<"mergeEntities">, options?: BindingCallOptions): Out<"mergeEntities">;
  rebuildEpisodes(agentId: string, options?: BindingCallOptions): Out<"rebuildEpisodes">;
  deleteAgent(agentId: string, options?: BindingCallOptions): Out<"deleteAgent">;
  /** The agent's whole memory as JSON Lines (what GET /v1/agents/{agentId}/export streams). */
  exportAgent(agentId: string): Promise<BindingResult<ReadableStream<Uint8Array>>>;
}

/** The answer of a binding call, or its error thrown as this SDK's typed class (QueueFullError…). */
export function unwrap<T>(result: BindingResult<T>): T {
  if (result.ok) return result.value;
  const { code, status, message, details, retry_after_ms } = result.error;
  const error: MemoryApiError = new ERROR_CLASSES[code]({ status, code, message, details, retryAfterMs: retry_after_ms });
  throw error;
}
