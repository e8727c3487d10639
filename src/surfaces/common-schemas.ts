import { z } from "@hono/zod-openapi";
import { AGENT_ID_PATTERN } from "../config/limits";
import { ERROR_CODE_LIST, ERROR_STATUS } from "../http/errors";
import { wellFormed } from "../text/well-formed";

/** The stable error envelope of every non-2xx answer; `code` is one of a closed list. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODE_LIST).openapi({ example: "validation_failed" }),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .openapi("Error");

/**
 * The query string of an endpoint that takes none: any parameter is refused (400 naming it), so a
 * misspelt or misplaced option (`?wait_ms` where it means nothing, `?confirm=yes` on a DELETE) is
 * never silently ignored.
 */
export const EmptyQuerySchema = z.object({}).strict();

export const AgentIdSchema = z
  .string()
  .regex(AGENT_ID_PATTERN, "agent id: 1–64 characters of A–Z a–z 0–9 _ . -, starting with a letter or digit")
  .openapi({ param: { name: "agentId", in: "path" }, example: "support-bot-42" });

/** The path of every agent route. */
export const AgentPathSchema = z.object({ agentId: AgentIdSchema });

export const TaskIdSchema = z
  .string()
  .regex(/^tsk_[A-Za-z0-9]{8,40}$/, "task id: tsk_ followed by letters and digits")
  .openapi({ param: { name: "taskId", in: "path" }, example: "tsk_4Lq8s0bXw2" });

const NODE_ID = /^[1-9][0-9]{0,15}$/;

/** A node id in a path: decimal digits only ("0x1", "1e0", "+1", " 1", "01" are not ids). */
export const NodeIdSchema = z
  .string()
  .regex(NODE_ID, "node id: a positive decimal integer")
  .transform(Number)
  .refine((n) => Number.isSafeInteger(n), "node id too large")
  // The transform hides the pattern from the generated document: stated here again.
  .openapi({ param: { name: "nodeId", in: "path" }, example: "12", type: "string", pattern: NODE_ID.source });

/** A JSON answer in a route's `responses`. */
export const jsonAnswer = <S>(schema: S, description: string) => ({ description, content: { "application/json": { schema } } });

/** A string of well-formed Unicode (src/text/well-formed.ts): no lone surrogate. */
export const TextSchema = z.string().refine(wellFormed, "malformed Unicode (a lone surrogate)");

/** Retry-After on 429 and 503: whole seconds to wait before retrying. */
export const RETRY_AFTER = {
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" as const, minimum: 0 } },
};

/** What each error status means to a client; the codes it carries are listed from ERROR_STATUS. */
const ERROR_MEANINGS: Partial<
  Record<
    number,
    { description: string; headers?: Record<string, { description: string; schema: { type: "string" | "integer"; minimum?: number } }> }
  >
> = {
  400: { description: "Bad input: the message names the field, `details.issues` lists every problem. Nothing was written." },
  401: {
    description: "Missing, unknown or revoked API key.",
    headers: { "WWW-Authenticate": { description: 'How to authenticate: `Bearer realm="agent-memory"`.', schema: { type: "string" } } },
  },
  403: {
    description:
      "The key's scope does not allow the operation (`details.needed_scope`), or the agent is outside the key's agent-id prefix (`details.agent_prefix`); from the local development server (`npm run dev`) also a request not addressed to localhost, 127.0.0.1 or [::1], or from a page of another origin. Nothing ran.",
  },
  404: { description: "No such task or node (of this agent)." },
  405: {
    description: "The path does not take this method (answered to requests with another method than this operation's).",
    headers: { Allow: { description: "The methods the path takes.", schema: { type: "string" } } },
  },
  409: {
    description:
      "The request cannot apply to the memory as it stands (the message says why: a superseded version, an entity where a memory is meant, an Idempotency-Key whose write was deleted since, node ids used up). Nothing was written.",
  },
  413: { description: "The body is over 1 MiB, or has too many or too long messages. Nothing was written." },
  415: { description: "The body is not `application/json`. Nothing was written." },
  422: { description: "The Idempotency-Key was used with a different request. Nothing was written." },
  429: {
    description:
      "A quota of the tenant is reached (`quota_exceeded`: `details.quota` names it, `details.limit` is its limit), the agent's queue is full (`queue_full`), or (the deep health check) a rate that spends what every tenant shares was used up (`rate_limited`): retry after `Retry-After` seconds. Nothing was written.",
    headers: RETRY_AFTER,
  },
  503: {
    description: "A transient outage (the agent's object restarting, the database unreachable): retry after `Retry-After` seconds.",
    headers: RETRY_AFTER,
  },
};

function errorResponse(status: number) {
  const codes = ERROR_CODE_LIST.filter((code) => ERROR_STATUS[code] === status);
  const meaning = ERROR_MEANINGS[status];
  if (!meaning || codes.length === 0) throw new Error(`no documented error for status ${status}`);
  return {
    description: `${meaning.description} Code: ${codes.map((c) => `\`${c}\``).join(" or ")}.`,
    ...(meaning.headers ? { headers: meaning.headers } : {}),
    content: { "application/json": { schema: ErrorSchema } },
  };
}

/**
 * The error answers an operation can send (docs/design.md, "Robustness promises"), each with the codes of its status
 * and its headers (Retry-After, WWW-Authenticate, Allow). Every operation can answer 400 (a query
 * parameter or a body it does not take), 403 (a key's scope or agent-id prefix; locally, a foreign
 * host or origin), 405 (another method on its path), 413 (any body over 1 MiB) and 503; `auth`:
 * 401 and 429 (the tenant's request rate); `body`: a JSON body, 415; `write`: a queued write, 409
 * (its key's write was deleted since, or the agent's node ids are used up), 422 and 429; `notFound`: an id
 * in the path, 404. test/properties.test.ts checks that no answer has a status its operation
 * does not declare.
 */
export function errorsOf(options: { auth?: boolean; body?: boolean; write?: boolean; notFound?: boolean } = {}) {
  const statuses = [400, 403, 405, 413, 503];
  if (options.auth ?? true) statuses.push(401, 429);
  if (options.body) statuses.push(415);
  if (options.write) statuses.push(409, 422);
  if (options.write && !(options.auth ?? true)) statuses.push(429);
  if (options.notFound) statuses.push(404);
  return Object.fromEntries(statuses.sort((a, b) => a - b).map((s) => [s, errorResponse(s)]));
}

/** The error answers of an authenticated operation that takes no body (see errorsOf). */
export const errorResponses = errorsOf();
