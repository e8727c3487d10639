import { z } from "@hono/zod-openapi";
import { DEFAULT_RECALL_LIMIT, MAX_RECALL_DEPTH, MAX_RECALL_KEYWORDS, MAX_RECALL_LIMIT, MAX_RECALL_RELATIONS } from "../config/limits";

export const RecallRequestSchema = z
  .object({
    keywords: z
      .array(z.string().trim().min(1).max(200))
      .max(MAX_RECALL_KEYWORDS)
      .default([])
      .openapi({ description: "Memories matching any keyword are returned.", example: ["登录模块", "JWT"] }),
    query: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .openapi({ description: "Free text; its keywords are extracted and added to `keywords`." }),
    relations: z
      .array(z.string().trim().min(1).max(50))
      .max(MAX_RECALL_RELATIONS)
      .default([])
      .openapi({ description: "Follow only links with these relation names (empty: all).", example: ["关于"] }),
    depth: z
      .number()
      .int()
      .min(1)
      .max(MAX_RECALL_DEPTH)
      .optional()
      .openapi({ description: "BFS layers out from the focus; default: the agent's default_search_depth." }),
    limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).default(DEFAULT_RECALL_LIMIT),
    start: z.enum(["hybrid", "focus"]).default("hybrid").openapi({
      description:
        "Where the search enters the network. focus: the focus nodes only (the BFS of the original design). hybrid: the focus plus full-text and vector hits for the keywords, fused (focus-reached memories win ties).",
    }),
    format: z.enum(["text", "json"]).default("text"),
    locale: z.enum(["zh", "en"]).default("zh").openapi({ description: "Language of the labels in text output." }),
  })
  .openapi("RecallRequest");

export type RecallRequest = z.output<typeof RecallRequestSchema>;

export const RecallQuerySchema = z.object({
  format: z.enum(["text", "json"]).optional(),
  locale: z.enum(["zh", "en"]).optional(),
});

const RoleSchema = z.enum(["user", "assistant", "system"]).nullable();

export const MemoryItemSchema = z
  .object({
    type: z.literal("memory"),
    node_id: z.number().int(),
    content: z.string(),
    phrase: z.string(),
    speaker: z.string().nullable(),
    role: RoleSchema,
    source_message_ids: z.array(z.string()),
    created_at: z.number().int(),
    message_time: z.number().int().nullable(),
    depth: z.number().int(),
    scores: z.object({
      /** Distinct keywords matched. */
      hits: z.number().int(),
      /** The matched keywords weighted by their rarity among the memories reached; ranks first. */
      keyword_score: z.number(),
      path_strength: z.number(),
      importance: z.number(),
      /** Search score normalised to (0, 1] when the memory was an entry point found by search; else 0. */
      similarity: z.number(),
    }),
  })
  .openapi("MemoryItem");

export const ForgottenItemSchema = z
  .object({
    type: z.literal("forgotten"),
    /** The node that still links to what was forgotten. */
    source_node_id: z.number().int(),
    phrase: z.string(),
    relation: z.string(),
    scores: z.object({ hits: z.number().int(), strength: z.number() }),
  })
  .openapi("ForgottenItem");

export const RecallResponseSchema = z
  .object({
    items: z.array(z.union([MemoryItemSchema, ForgottenItemSchema])),
    /** How many nodes the search started from: the focus nodes, plus search hits with start=hybrid. */
    start_nodes: z.number().int(),
    reached_nodes: z.number().int(),
  })
  .openapi("RecallResponse");

export type MemoryItem = z.infer<typeof MemoryItemSchema>;
export type ForgottenItem = z.infer<typeof ForgottenItemSchema>;
export type RecallResponse = z.infer<typeof RecallResponseSchema>;
