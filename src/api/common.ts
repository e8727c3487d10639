import { z } from "@hono/zod-openapi";
import { AGENT_ID_PATTERN } from "../config/limits";
import { ERROR_CODE_LIST } from "../http/errors";

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

/**
 * Text must be well-formed Unicode: a lone surrogate (possible in JSON as "\ud800") would be
 * stored as replacement characters and its length would disagree with what was sent.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function wellFormed(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/** A string of well-formed Unicode (see wellFormed). */
export const TextSchema = z.string().refine(wellFormed, "malformed Unicode (a lone surrogate)");

export const errorResponses = {
  400: { description: "Bad input", content: { "application/json": { schema: ErrorSchema } } },
  401: { description: "Missing or unknown API key", content: { "application/json": { schema: ErrorSchema } } },
  503: {
    description: "A transient outage (the agent's object restarting, the database unreachable): retry after Retry-After seconds",
    content: { "application/json": { schema: ErrorSchema } },
  },
} as const;
