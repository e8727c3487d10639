/**
 * Typed API errors and their one mapping to the JSON envelope `{error: {code, message, details?}}`.
 * Routes and middleware throw ApiError (or answer with errorResponse); everything else that
 * escapes, hono's own exceptions included, is mapped here by type. Every non-2xx answer of the API
 * is built by errorResponse, so none can leave in another shape.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AgentRefusal } from "../agent/refusal";

/** Seconds a client should wait before retrying a write that a full queue refused. */
export const QUEUE_FULL_RETRY_AFTER_S = 5;

/** Seconds a client should wait after a transient outage (the agent's object reset, D1 unreachable). */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/**
 * Every error code the API answers with: a closed list (the OpenAPI document publishes it), each
 * with its one HTTP status. A new kind of failure gets a code here, never an ad-hoc string.
 */
export const ERROR_CODE_LIST = [
  "invalid_json",
  "validation_failed",
  "unauthorized",
  /**
   * The key's scope or agent-id prefix does not allow the request (src/http/scope-guard.ts); on the
   * local development server also a request not addressed to this machine (src/http/local-origin.ts).
   */
  "forbidden",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
  "idempotency_conflict",
  /** The request cannot apply to the memory as it stands (an ambiguous description, an entity where a memory is meant, a non-empty agent). */
  "conflict",
  "queue_full",
  /** A quota of the tenant (src/config/quotas.ts): `details` names it and its limit; Retry-After says when to try again. */
  "quota_exceeded",
  /** The caller's rate of an operation that spends what every tenant shares (the deep health check) is used up; Retry-After. */
  "rate_limited",
  "internal",
  "unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODE_LIST)[number];

export const ERROR_STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_conflict: 422,
  conflict: 409,
  queue_full: 429,
  quota_exceeded: 429,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

/** Marks a validation issue as "too large", so the error hook answers 413 instead of 400. */
export const TOO_LARGE = "too_large";

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly details: unknown;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { details?: unknown; cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  /** Headers the answer carries (Retry-After, Allow, WWW-Authenticate…). */
  readonly headers: Record<string, string>;
}

/**
 * Retry-After of a count quota (agents, nodes per agent): nothing frees it with time, only a
 * deletion or the operator raising it; an hour is when asking again is worth it.
 */
export const COUNT_QUOTA_RETRY_S = 3_600;

/** 429 quota_exceeded: the quota, its limit, and when trying again can succeed. */
export function quotaExceeded(quota: string, limit: number, retryAfterS: number): ApiError {
  return new ApiError("quota_exceeded", `the tenant's ${quota} quota (${limit}) is reached; retry in ${retryAfterS} s`, {
    details: { quota, limit },
    headers: { "Retry-After": String(retryAfterS) },
  });
}

export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** The one way an error answer is built: the envelope, the code's status, and its headers. */
export function errorResponse(
  c: Context,
  code: ErrorCode,
  message: string,
  options: { details?: unknown; headers?: Record<string, string> } = {},
): Response {
  return c.json(errorBody(code, message, options.details), ERROR_STATUS[code], options.headers);
}

/**
 * hono's own exceptions, by status: the JSON validator throws 400 only for a body that is not
 * JSON, the media-type gate of @hono/zod-openapi 415. Any other status would be a hono change we
 * have not mapped: it is answered as internal (and logged) rather than passed through unchecked.
 */
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: "invalid_json",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/** What to tell the client instead of hono's terse reason phrases. */
const HTTP_EXCEPTION_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_json: "the request body is not valid JSON",
  unsupported_media_type: "the request body must be JSON (Content-Type: application/json)",
};

/** Errors that Durable Object RPC marks as transient (overload, reset): worth a retry. */
function isTransient(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  return ("overloaded" in err && err.overloaded === true) || ("retryable" in err && err.retryable === true);
}

const RETRY_SOON = { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) };

export function handleError(err: unknown, c: Context): Response {
  if (err instanceof ApiError) {
    // An outage we recognised (D1 down while authenticating…) is still worth a line in the log.
    if (err.status >= 500) console.error(`${err.code}: ${err.message}`, err.cause);
    return errorResponse(c, err.code, err.message, { details: err.details, headers: err.headers });
  }
  if (err instanceof AgentRefusal) {
    if (err.code === "queue_full") {
      return errorResponse(c, "queue_full", err.message, { headers: { "Retry-After": String(QUEUE_FULL_RETRY_AFTER_S) } });
    }
    if (err.code === "idempotency_conflict") return errorResponse(c, "idempotency_conflict", err.message);
    if (err.code === "quota_exceeded" && err.quota) {
      const q = quotaExceeded(err.quota.name, err.quota.limit, err.quota.retryAfterS);
      return errorResponse(c, q.code, q.message, { details: q.details, headers: q.headers });
    }
    if (err.code === "capacity") return errorResponse(c, "unavailable", err.message, { headers: { "Retry-After": "60" } });
    return errorResponse(c, "conflict", err.message);
  }
  if (err instanceof HTTPException) {
    const code = HTTP_EXCEPTION_CODES[err.status];
    if (code) return errorResponse(c, code, HTTP_EXCEPTION_MESSAGES[code] ?? err.message);
  }
  if (isTransient(err)) {
    console.error("transient failure", err);
    return errorResponse(c, "unavailable", "the agent is temporarily unavailable; retry shortly", { headers: RETRY_SOON });
  }
  console.error("unhandled error", err);
  return errorResponse(c, "internal", "internal error");
}
