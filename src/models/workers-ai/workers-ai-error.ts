/**
 * The typed failure of one Workers AI call. Codes name what went wrong in terms the retry policy
 * acts on (model-error.ts): only `call_failed` and `timeout` are retried. Everything the model
 * answers is produced at temperature 0, so a malformed or invalid answer would come back the same
 * and is not retried either; the local model answers instead.
 */
import { ModelCallError } from "../model-error";

export type WorkersAiErrorCode =
  /** The binding rejected for a reason not known to be permanent (network, server error). */
  | "call_failed"
  /** Workers AI 3007/3008: the request timed out or was aborted. */
  | "timeout"
  /** Workers AI 3021/3040 (429) after the call's whole wait budget was spent waiting. */
  | "rate_limited"
  /** Workers AI 3036: the account's daily allocation is used up. */
  | "quota_exhausted"
  /** Workers AI 5021, or our own estimate: input plus max_tokens exceed the context window. */
  | "context_exceeded"
  /** Workers AI 3003/3006/5004: the request is malformed or too large. */
  | "invalid_request"
  /** Unknown model, model terms not accepted, account not allowed: a configuration problem. */
  | "misconfigured"
  /** "JSON Mode couldn't be met": the model could not produce the schema for this input. */
  | "json_unmet"
  /** The answer stopped at max_tokens before its JSON was complete. */
  | "output_truncated"
  /** The answer had none of the known envelopes, or an empty one. */
  | "no_answer"
  /** The answer text was not JSON. */
  | "not_json"
  /** The JSON did not match the task's schema. */
  | "schema_mismatch"
  /** The JSON matched the schema but broke a task rule (validate.ts). */
  | "invalid_answer";

const RETRYABLE: ReadonlySet<WorkersAiErrorCode> = new Set(["call_failed", "timeout"]);

export interface WorkersAiErrorOptions {
  cause?: unknown;
  /** Workers AI's internal error code, when the binding gave one. */
  internalCode?: number;
  /** How long the service asked us to wait before the next request, when it said so. */
  retryAfterMs?: number;
}

export class WorkersAiError extends ModelCallError {
  override readonly name = "WorkersAiError";
  override readonly retryable: boolean;
  readonly internalCode: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    override readonly code: WorkersAiErrorCode,
    message: string,
    options: WorkersAiErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.retryable = RETRYABLE.has(code);
    this.internalCode = options.internalCode;
    this.retryAfterMs = options.retryAfterMs;
  }
}
