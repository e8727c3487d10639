/**
 * Classifies what `env.AI.run` throws. The binding turns every failure into a plain Error whose
 * message is "<internal code>: <description>", so the internal
 * code is the stable part to read; the codes are Workers AI's documented ones plus those seen in
 * practice:
 *   3021 "rate limiting: inference request per min rate reached" (429, the per-minute limit),
 *   3040 "Capacity temporarily exceeded, please try again." (429),
 *   5021 "The estimated number of input and maximum output tokens (N) exceeded this model context
 *        window limit (M)".
 * "JSON Mode couldn't be met" is documented without a code, so it is the one
 * failure recognised by its text.
 */
import { WorkersAiError, type WorkersAiErrorCode } from "./workers-ai-error";

const BY_INTERNAL_CODE: ReadonlyMap<number, WorkersAiErrorCode> = new Map([
  [3021, "rate_limited"],
  [3040, "rate_limited"],
  [3036, "quota_exhausted"],
  [5021, "context_exceeded"],
  [3007, "timeout"],
  [3008, "timeout"],
  [3003, "invalid_request"],
  [3006, "invalid_request"],
  [5004, "invalid_request"],
  [5007, "misconfigured"],
  [3042, "misconfigured"],
  [3041, "misconfigured"],
  [5018, "misconfigured"],
  [5016, "misconfigured"],
  [3023, "misconfigured"],
  [5019, "misconfigured"],
  [5005, "misconfigured"],
]);

const INTERNAL_CODE = /\b(\d{4}):/g;
const JSON_UNMET = /JSON Mode couldn't be met/i;
/** "retry after 30s", "Retry-After: 30", "retry in 1500 ms": a hint some gateways add. */
const RETRY_HINT = /retry[- ]?(?:after|in)\s*:?\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|seconds?)?/i;

export function classifyBindingError(model: string, err: unknown): WorkersAiError {
  if (err instanceof WorkersAiError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const internalCode = internalCodeOf(message);
  const code = internalCode === undefined ? undefined : BY_INTERNAL_CODE.get(internalCode);
  const options = { cause: err, internalCode, retryAfterMs: retryHintMs(message) };
  if (code) return new WorkersAiError(code, `${model}: ${message}`, options);
  return new WorkersAiError(JSON_UNMET.test(message) ? "json_unmet" : "call_failed", `${model}: ${message}`, options);
}

/** The first known "<code>:" in the message (a request id or other number may precede it). */
function internalCodeOf(message: string): number | undefined {
  for (const match of message.matchAll(INTERNAL_CODE)) {
    const code = Number(match[1]);
    if (BY_INTERNAL_CODE.has(code)) return code;
  }
  return undefined;
}

function retryHintMs(message: string): number | undefined {
  const match = RETRY_HINT.exec(message);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = match[2]?.toLowerCase() ?? "s";
  return Math.round(unit.startsWith("m") ? value : value * 1000);
}
