import { z } from "@hono/zod-openapi";
import { AGENT_ID_PATTERN } from "../config/limits";

/** The stable error envelope of every non-2xx answer. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "validation_failed" }),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .openapi("Error");

export const AgentIdSchema = z
  .string()
  .regex(AGENT_ID_PATTERN, "agent id: 1–64 characters of A–Z a–z 0–9 _ . -, starting with a letter or digit")
  .openapi({ param: { name: "agentId", in: "path" }, example: "support-bot-42" });

export const AgentParamsSchema = z.object({ agentId: AgentIdSchema });

export const TaskIdSchema = z
  .string()
  .regex(/^tsk_[A-Za-z0-9]{8,40}$/, "task id: tsk_ followed by letters and digits")
  .openapi({ param: { name: "taskId", in: "path" }, example: "tsk_4Lq8s0bXw2" });

export const NodeIdSchema = z.coerce
  .number()
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER)
  .openapi({ param: { name: "nodeId", in: "path" }, example: 12 });

/** Marks a validation issue as "too large", so the error hook answers 413 instead of 400. */
export const TOO_LARGE = "too_large";

export const errorResponses = {
  400: { description: "Bad input", content: { "application/json": { schema: ErrorSchema } } },
  401: { description: "Missing or unknown API key", content: { "application/json": { schema: ErrorSchema } } },
} as const;
