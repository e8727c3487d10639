/**
 * The types of the memory's Workers RPC entrypoint (the server's MemoryEntrypoint), for a Worker
 * that binds to it (README, "Workers RPC"): `env.MEMORY: MemoryBinding`. Each method takes the
 * agent id first and resolves with a BindingResult: the operation's answer (the same as this
 * SDK's method of the same name) or the API's error. `unwrap` turns a result into the answer or
 * the typed error class of this SDK.
 */
import { ERROR_CLASSES, type MemoryApiError } from "./errors.js";
import type { ErrorCode, OperationTypes, RPC_METHODS } from "./generated/operations.js";

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

type RpcMethods = typeof RPC_METHODS;
type Options<N extends keyof RpcMethods> = RpcMethods[N]["write"] extends true ? [options?: BindingCallOptions] : [];
/** One method's arguments after the agent id: its input (none, optional, required), then a write's options. */
type Args<N extends keyof RpcMethods> = RpcMethods[N]["input"] extends "none"
  ? Options<N>
  : RpcMethods[N]["input"] extends "optional"
    ? [input?: In<N>, ...Options<N>]
    : [input: In<N>, ...Options<N>];

/**
 * The methods of the entrypoint: the SDK's agent methods, with the agent id first, one per tool
 * operation (RPC_METHODS, generated from the server's operation list, each method's `@example` with
 * it), and the export as a stream.
 */
export type MemoryBinding = { [N in keyof RpcMethods]: (agentId: string, ...args: Args<N>) => Out<N> } & {
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
};

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
