/**
 * What a method of the RPC entrypoint resolves with (sdk/src/rpc-binding.ts): the operation's
 * answer, or the API's error (the same code, message and details the REST endpoint answers with).
 * A result, not a thrown error: Workers RPC passes a thrown error on as a plain Error (its class
 * and fields lost), while a result crosses the boundary whole and the caller switches on
 * `error.code` (or the SDK's `unwrap` throws its typed class).
 */
import { ArgumentError } from "../../sdk/src/binding";
import { MemoryApiError } from "../../sdk/src/errors";
import type { BindingError, JsonValue } from "../../sdk/src/rpc-binding";
import { ERROR_STATUS, type ErrorCode } from "../http/errors";

function isJson(value: unknown): value is JsonValue {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") return true;
  if (Array.isArray(value)) return value.every(isJson);
  return typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(isJson);
}

export function failure(code: ErrorCode, message: string, details?: unknown, retryAfterMs?: number): { ok: false; error: BindingError } {
  // details are the parsed JSON of an error answer: always JSON.
  const error: BindingError = { code, status: ERROR_STATUS[code], message, ...(isJson(details) ? { details } : {}) };
  if (retryAfterMs !== undefined) error.retry_after_ms = retryAfterMs;
  return { ok: false, error };
}

/** The result of an error the in-process REST call raised. */
export function failureOf(error: unknown): { ok: false; error: BindingError } {
  if (error instanceof MemoryApiError) {
    return failure(error.code === "unknown" ? "internal" : error.code, error.message, error.details, error.retryAfterMs);
  }
  // An argument the operation has no place for (the SDK's binding of arguments to the request).
  if (error instanceof ArgumentError) {
    return failure("validation_failed", error.message, { issues: [{ in: "arguments", path: "", message: error.message }] });
  }
  throw error;
}
