/**
 * The agent's own types of a recall: its query and its result (what the HTTP layer serves under
 * OpenAPI names, src/operations/recall/route.ts). Kept apart from the runner so that reading them pulls in
 * nothing but zod and the vocabulary.
 */
import { z } from "zod";
import { DEFAULT_RECALL_LIMIT, MAX_RECALL_DEPTH, MAX_RECALL_KEYWORDS, MAX_RECALL_LIMIT, MAX_RECALL_RELATIONS } from "../../config/limits";
import { LOCALES } from "../../vocabulary/locales";
import { viewFields } from "../shared/node-fields";

/** The kinds of memory recall can return (entities are hubs, never a memory of their own). */
export const RECALL_KINDS = ["segment", "memory", "episode"] as const;

export const RecallQuerySchema = z
  .object({
    keywords: z.array(z.string().min(1).max(200)).max(MAX_RECALL_KEYWORDS),
    query: z.string().min(1).max(2000).optional(),
    /** Ask the model for the query's keywords too (one text call); otherwise the read path calls no text model. */
    expand: z.boolean().default(false),
    relations: z.array(z.string().min(1).max(50)).max(MAX_RECALL_RELATIONS),
    depth: z.number().int().min(1).max(MAX_RECALL_DEPTH).optional(),
    limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).default(DEFAULT_RECALL_LIMIT),
    start: z.enum(["hybrid", "focus"]),
    /** The labels' language as the request states it (src/operations/shared/label-locale.ts decides). */
    locale: z.enum(LOCALES).optional(),
    accept_language: z.enum(LOCALES).optional(),
    /** Kinds of memory returned: conversation segments and explicit memories unless episodes are asked for too. */
    kinds: z.array(z.enum(RECALL_KINDS)).min(1).default(["segment", "memory"]),
  })
  .strict();

export const RecalledMemorySchema = z.object({
  type: z.literal("memory"),
  ...viewFields("node_id", "content", "phrase", "speaker", "role", "source_message_ids", "created_at", "message_time"),
  depth: z.number().int(),
  // The answer marks a conflict.
  ...viewFields("conflicts_with"),
  scores: z.object({
    hits: z.number().int(),
    keyword_score: z.number(),
    path_strength: z.number(),
    importance: z.number(),
    similarity: z.number(),
  }),
});
export const RecalledTraceSchema = z.object({
  type: z.literal("forgotten"),
  source_node_id: z.number().int(),
  phrase: z.string(),
  relation: z.string(),
  scores: z.object({ hits: z.number().int(), strength: z.number() }),
});
export const RecallResultSchema = z.object({
  memories: z.array(RecalledMemorySchema),
  traces: z.array(RecalledTraceSchema),
  start_nodes: z.number().int(),
  reached_nodes: z.number().int(),
  /** What the agent reads: the memories and traces as plain text, in the labels' language (src/operations/shared/label-locale.ts). */
  text: z.string(),
});
export type RecallResult = z.infer<typeof RecallResultSchema>;
