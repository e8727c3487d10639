/**
 * Typed API errors and their one mapping to the JSON envelope `{error: {code, message, details?}}`.
 * Routes and middleware throw ApiError; everything else that escapes is mapped here by type.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export type ErrorCode =
  | "invalid_json"
  | "validation_failed"
  | "unauthorized"
  | "not_found"
  | "payload_too_large"
  | "unsupported_media_type"
  | "queue_full"
  | "unavailable"
  | "internal";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ApiError";
  }
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
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.details), err.status);
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
