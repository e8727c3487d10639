/**
 * Typed API errors and their one mapping to the JSON envelope `{error: {code, message, details?}}`.
 * Routes and middleware throw ApiError; everything else that escapes is mapped here by type.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AgentRefusal } from "../agent/refusal";

/** Seconds a client should wait before retrying a write that a full queue refused. */
export const QUEUE_FULL_RETRY_AFTER_S = 5;

export type ErrorCode =
  | "invalid_json"
  | "validation_failed"
  | "unauthorized"
  | "not_found"
  | "payload_too_large"
  | "unsupported_media_type"
  | "queue_full"
  | "idempotency_conflict"
  /** 409: the request cannot apply to the memory as it stands (an ambiguous description, a superseded version, a non-empty agent). */
  | "conflict"
  | "unavailable"
  | "internal";

/** Marks a validation issue as "too large", so the error hook answers 413 instead of 400. */
export const TOO_LARGE = "too_large";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.headers = options?.headers ?? {};
  }

  /** Headers the answer carries (Retry-After, Allow, WWW-Authenticate…). */
  readonly headers: Record<string, string>;
}

export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** hono's own exceptions, by status: the JSON validator throws 400 only for a body that is not JSON. */
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: "invalid_json",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/** Errors that Durable Object RPC marks as transient (overload, reset): worth a retry. */
function isTransient(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  return ("overloaded" in err && err.overloaded === true) || ("retryable" in err && err.retryable === true);
}

export function handleError(err: unknown, c: Context): Response {
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json(errorBody(err.code, err.message, err.details), err.status);
  }
  if (err instanceof AgentRefusal) {
    if (err.code === "queue_full") {
      c.header("Retry-After", String(QUEUE_FULL_RETRY_AFTER_S));
      return c.json(errorBody("queue_full", err.message), 429);
    }
    if (err.code === "idempotency_conflict") return c.json(errorBody("idempotency_conflict", err.message), 422);
    if (err.code === "capacity") {
      c.header("Retry-After", "60");
      return c.json(errorBody("unavailable", err.message), 503);
    }
    return c.json(errorBody("validation_failed", err.message, { issues: err.issues }), 400);
  }
  if (err instanceof HTTPException) {
    const code = HTTP_EXCEPTION_CODES[err.status];
    if (code) {
      const message = code === "invalid_json" ? "the request body is not valid JSON" : err.message;
      return c.json(errorBody(code, message), err.status);
    }
  }
  if (isTransient(err)) {
    c.header("Retry-After", "1");
    return c.json(errorBody("unavailable", "the agent is temporarily unavailable; retry shortly"), 503);
  }
  console.error("unhandled error", err);
  return c.json(errorBody("internal", "internal error"), 500);
}
