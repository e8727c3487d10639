/** Response shapes of the read endpoints: the agent's own view schemas under their OpenAPI names. */
import { z } from "@hono/zod-openapi";
import { FocusViewSchema, NodeViewSchema, PingViewSchema, StatsViewSchema, TaskStatusViewSchema } from "../agent/views";

export const TaskStatusSchema = TaskStatusViewSchema.openapi("TaskStatus");
export const FocusSchema = FocusViewSchema.openapi("Focus");
export const NodeSchema = NodeViewSchema.openapi("Node");
export const StatsSchema = StatsViewSchema.openapi("Stats");
export const PingSchema = PingViewSchema.openapi("Ping");

export const TaskWaitQuerySchema = z
  .object({
    wait_ms: z
      .string()
      // Plain decimal only: "010", "1e3", "0x10" or "+5" are not read as some number of milliseconds.
      .regex(/^(0|[1-9][0-9]{0,4})$/, "wait_ms: milliseconds, 0–30000, in plain decimal")
      .transform(Number)
      .refine((n) => n <= 30_000, "wait_ms: at most 30000")
      .optional()
      .openapi({ description: "Wait up to this long (ms) for the work to finish before answering.", type: "string" }),
  })
  .strict();
