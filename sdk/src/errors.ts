/**
 * Typed errors. Every answer of the API that is not a success is `{error: {code, message, details?}}`
 * with a code from a closed list (ERROR_STATUS, generated from the server's own list); each code
 * has its class here, so `catch (e) { if (e instanceof QueueFullError) … }` needs no string
 * matching. Failures that never reached an answer (network, timeout) have their own classes.
 */
import { ERROR_STATUS, type ErrorCode } from "./generated/operations.js";

/** Everything the SDK throws on purpose derives from this. */
export class MemoryError extends Error {
  override name = "MemoryError";
}

/** An error answer of the API. */
export class MemoryApiError extends MemoryError {
  override name = "MemoryApiError";
  /** The HTTP status. */
  readonly status: number;
  /** The API's error code; `unknown` when the answer was not the API's envelope (a proxy's page). */
  readonly code: ErrorCode | "unknown";
  /** `details` of the envelope (for validation errors: `{issues: [{in, path, message}]}`). */
  readonly details: unknown;
  /** What `Retry-After` asked for, in milliseconds (429 and 503), or undefined. */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    status: number;
    code: ErrorCode | "unknown";
    message: string;
    details?: unknown;
    retryAfterMs?: number | undefined;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfterMs = init.retryAfterMs;
  }
}

export class InvalidJsonError extends MemoryApiError {
  override name = "InvalidJsonError";
}
export class ValidationError extends MemoryApiError {
  override name = "ValidationError";
}
export class UnauthorizedError extends MemoryApiError {
  override name = "UnauthorizedError";
}
/**
 * 403: the key's scope does not allow the operation (`details.needed_scope`), or the agent is
 * outside its agent-id prefix (`details.agent_prefix`); from the local development server also a
 * request not addressed to this machine (or from a page of another origin).
 */
export class ForbiddenError extends MemoryApiError {
  override name = "ForbiddenError";
}
export class NotFoundError extends MemoryApiError {
  override name = "NotFoundError";
}
export class MethodNotAllowedError extends MemoryApiError {
  override name = "MethodNotAllowedError";
}
export class PayloadTooLargeError extends MemoryApiError {
  override name = "PayloadTooLargeError";
}
export class UnsupportedMediaTypeError extends MemoryApiError {
  override name = "UnsupportedMediaTypeError";
}
export class IdempotencyConflictError extends MemoryApiError {
  override name = "IdempotencyConflictError";
}
/**
 * 409: the request cannot apply to the memory as it stands (an ambiguous description:
 * `details.candidates`; a superseded version: `details.superseded_by`; an Idempotency-Key whose
 * write was deleted since).
 */
export class ConflictError extends MemoryApiError {
  override name = "ConflictError";
}
export class QueueFullError extends MemoryApiError {
  override name = "QueueFullError";
}
/**
 * 429: a quota of the tenant is reached. `details.quota` names it (agents, nodes_per_agent,
 * messages_per_day, requests_per_minute) and `details.limit` is its limit; `retryAfterMs` says when
 * trying again can succeed.
 */
export class QuotaExceededError extends MemoryApiError {
  override name = "QuotaExceededError";
}
/** 429: an operation that spends what every tenant shares (the deep health check) was asked too often; Retry-After. */
export class RateLimitedError extends MemoryApiError {
  override name = "RateLimitedError";
}
export class InternalServerError extends MemoryApiError {
  override name = "InternalServerError";
}
export class UnavailableError extends MemoryApiError {
  override name = "UnavailableError";
}

type ApiErrorClass = new (init: ConstructorParameters<typeof MemoryApiError>[0]) => MemoryApiError;

/** One class per code: a code added to the server's list fails to compile here until it has one. */
export const ERROR_CLASSES: Record<ErrorCode, ApiErrorClass> = {
  invalid_json: InvalidJsonError,
  validation_failed: ValidationError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  payload_too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  idempotency_conflict: IdempotencyConflictError,
  conflict: ConflictError,
  queue_full: QueueFullError,
  quota_exceeded: QuotaExceededError,
  rate_limited: RateLimitedError,
  internal: InternalServerError,
  unavailable: UnavailableError,
};

/** The request did not get an answer: the connection failed (`cause` says how). */
export class ConnectionError extends MemoryError {
  override name = "ConnectionError";
}

/** No answer within `timeoutMs` (per attempt), or `waitForTask` ran out of time. */
export class TimeoutError extends MemoryError {
  override name = "TimeoutError";
}

/**
 * `contextWindow`: the window is too small for a useful memory block (fewer than MIN_BLOCK_TOKENS),
 * or its block leaves no room for messages. Raised when the helper is made, never later.
 */
export class ContextWindowTooSmallError extends MemoryError {
  override name = "ContextWindowTooSmallError";
  readonly contextMaxTokens: number;
  readonly blockTokens: number;
  /** The smallest block the helper injects (MIN_BLOCK_TOKENS). */
  readonly minimumBlockTokens: number;

  constructor(message: string, init: { contextMaxTokens: number; blockTokens: number; minimumBlockTokens: number }) {
    super(message);
    this.contextMaxTokens = init.contextMaxTokens;
    this.blockTokens = init.blockTokens;
    this.minimumBlockTokens = init.minimumBlockTokens;
  }
}

/** `waitForTask`: the task ended as failed; `task` is its status as the API reported it. */
export class TaskFailedError extends MemoryError {
  override name = "TaskFailedError";
  constructor(
    message: string,
    readonly task: unknown,
  ) {
    super(message);
  }
}

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(ERROR_STATUS, code);
}

/** The code an answer without the envelope stands for, by its status (a proxy's 503 page…). */
function codeOfStatus(status: number): ErrorCode | "unknown" {
  for (const [code, s] of Object.entries(ERROR_STATUS)) if (s === status && isErrorCode(code)) return code;
  return "unknown";
}

/**
 * Parses `Retry-After`: delay-seconds or an HTTP date (RFC 9110 §10.2.3), as milliseconds.
 *
 * @example
 * ```ts
 * import { parseRetryAfter } from "@agent-memory/sdk";
 * console.log(parseRetryAfter("3"), parseRetryAfter("Wed, 21 Oct 2026 07:28:00 GMT"), parseRetryAfter(null)); // 3000, ms until then, undefined
 * ```
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The typed error of an error answer (its body already read as text).
 *
 * @example
 * ```ts
 * import { errorFromAnswer } from "@agent-memory/sdk";
 * const response = await fetch("http://127.0.0.1:8787/v1/agents/assistant-1/memories/999", { headers: { Authorization: "Bearer dev-key-local-only" } });
 * if (!response.ok) throw errorFromAnswer(response.status, response.headers, await response.text()); // NotFoundError, …
 * ```
 */
export function errorFromAnswer(status: number, headers: Headers, text: string): MemoryApiError {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = undefined;
  }
  const error = typeof envelope === "object" && envelope !== null && "error" in envelope ? envelope.error : undefined;
  const retryAfterMs = parseRetryAfter(headers.get("retry-after"));
  if (typeof error === "object" && error !== null && "code" in error && isErrorCode(error.code)) {
    const message = "message" in error && typeof error.message === "string" ? error.message : error.code;
    const details = "details" in error ? error.details : undefined;
    return new ERROR_CLASSES[error.code]({ status, code: error.code, message, details, retryAfterMs });
  }
  const code = codeOfStatus(status);
  const message = `HTTP ${status}: ${text.slice(0, 200) || "(no body)"}`;
  const Class = code === "unknown" ? MemoryApiError : ERROR_CLASSES[code];
  return new Class({ status, code, message, retryAfterMs });
}
