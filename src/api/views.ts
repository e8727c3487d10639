/** Response shapes of the read endpoints (task status, focus, node, stats). */
import { z } from "@hono/zod-openapi";

export const TaskStatusSchema = z
  .object({
    task_id: z.string(),
    /** Arrival number in the agent's queue: tasks are applied in this order. */
    sequence: z.number().int(),
    kind: z.enum(["remember", "recall", "search", "compress", "index", "delete"]),
    status: z.enum(["queued", "running", "done", "failed"]),
    attempts: z.number().int(),
    created_at: z.number().int(),
    started_at: z.number().int().nullable(),
    finished_at: z.number().int().nullable(),
    error: z.string().nullable(),
    result: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi("TaskStatus");

export const TaskWaitQuerySchema = z.object({
  wait_ms: z.coerce
    .number()
    .int()
    .min(0)
    .max(30_000)
    .optional()
    .openapi({ description: "Wait up to this long (ms) for the work to finish before answering." }),
});

export const FocusSchema = z
  .object({
    focus_limit: z.number().int(),
    focus: z.array(z.object({ node_id: z.number().int(), name: z.string(), key: z.string() })),
  })
  .openapi("Focus");

const LinkSchema = z.object({
  source: z.number().int(),
  target: z.number().int(),
  relation: z.string(),
  strength: z.number(),
  pinned: z.boolean(),
  /** The far end no longer exists: a trace of a forgotten memory. */
  dangling: z.boolean(),
  created_at: z.number().int(),
});

export const NodeViewSchema = z
  .object({
    node_id: z.number().int(),
    kind: z.enum(["segment", "entity"]),
    name: z.string().nullable(),
    content: z.string(),
    original_length: z.number().int(),
    phrase: z.string(),
    keywords: z.array(z.string()),
    role: z.enum(["user", "assistant", "system"]).nullable(),
    speaker: z.string().nullable(),
    source_message_ids: z.array(z.string()),
    source_task_id: z.string().nullable(),
    message_time: z.number().int().nullable(),
    created_at: z.number().int(),
    scan_count: z.number().int(),
    in_focus: z.boolean(),
    importance: z.number(),
    links: z.object({ outgoing: z.array(LinkSchema), incoming: z.array(LinkSchema) }),
  })
  .openapi("Node");

export const StatsSchema = z
  .object({
    nodes: z.object({ total: z.number().int(), segments: z.number().int(), entities: z.number().int() }),
    links: z.object({ total: z.number().int(), dangling: z.number().int() }),
    focus: z.number().int(),
    queue: z.object({
      queued: z.number().int(),
      running: z.number().int(),
      done: z.number().int(),
      failed: z.number().int(),
    }),
    characters: z.object({
      held: z.number().int(),
      remembered: z.number().int(),
    }),
    vector_index: z.object({ provider: z.string(), vectors: z.number().int().nullable(), bytes: z.number().int().nullable() }).nullable(),
    counters: z.record(z.string(), z.number()),
  })
  .openapi("Stats");

export type TaskStatusView = z.infer<typeof TaskStatusSchema>;
export type FocusView = z.infer<typeof FocusSchema>;
export type NodeView = z.infer<typeof NodeViewSchema>;
export type StatsView = z.infer<typeof StatsSchema>;

export const PingSchema = z.object({ ok: z.literal(true), agent_id: z.string() }).openapi("Ping");
export type PingView = z.infer<typeof PingSchema>;
