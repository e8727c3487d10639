/** Response shapes of the read endpoints: the agent's own view schemas under their OpenAPI names. */
import { z } from "@hono/zod-openapi";
import { FocusViewSchema, NodeViewSchema, PingViewSchema, StatsViewSchema } from "../agent/view-schemas";

export const FocusSchema = FocusViewSchema.openapi("Focus");
export const NodeSchema = NodeViewSchema.openapi("Node");
export const StatsSchema = StatsViewSchema.openapi("Stats");
export const PingSchema = PingViewSchema.openapi("Ping");

export const TaskWaitQuerySchema = z
  .object({
    wait_ms: z
      .string()
      .regex(/^[0-9]{1,5}$/, "wait_ms: milliseconds, 0–30000")
      .transform(Number)
      .refine((n) => n <= 30_000, "wait_ms: at most 30000")
      .optional()
      .openapi({ description: "Wait up to this long (ms) for the work to finish before answering.", type: "string" }),
  })
  .strict();

/** The HTTP shapes of the read endpoints (what a client receives). */
export type FocusView = z.infer<typeof FocusSchema>;
export type NodeView = z.infer<typeof NodeSchema>;
export type StatsView = z.infer<typeof StatsSchema>;
