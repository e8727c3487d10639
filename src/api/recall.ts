import { z } from "@hono/zod-openapi";
import { RECALL_KINDS, RecalledMemorySchema, RecalledTraceSchema } from "../operations/views/recall-schemas";
import { DEFAULT_RECALL_LIMIT, MAX_RECALL_DEPTH, MAX_RECALL_KEYWORDS, MAX_RECALL_LIMIT, MAX_RECALL_RELATIONS } from "../config/limits";
import { LOCALES } from "../vocabulary/locales";
import { TextSchema } from "./common";

export const RecallRequestSchema = z
  .object({
    keywords: z
      .array(TextSchema.trim().min(1).max(200))
      .max(MAX_RECALL_KEYWORDS)
      .default([])
      .openapi({ description: "Memories matching any keyword are returned.", example: ["登录模块", "JWT"] }),
    query: TextSchema.trim().min(1).max(2000).optional().openapi({
      description:
        "Free text; its words are added to `keywords` by the classical analyzer (no model call, so a recall costs one query embedding at most).",
    }),
    expand: z.boolean().default(false).openapi({
      description:
        "Also ask the small model for the query's keywords (synonyms, names the words imply). Costs one text-generation call, about a second on Workers AI.",
    }),
    relations: z
      .array(TextSchema.trim().min(1).max(50))
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
    locale: z.enum(LOCALES).optional().openapi({
      description:
        "Language of the labels in text output; default: Accept-Language, else the language of the agent's memories, else English.",
    }),
    kinds: z.array(z.enum(RECALL_KINDS)).min(1).default(["segment", "memory"]).openapi({
      description:
        "Kinds of memory to return: conversation segments and explicit memories by default; add `episode` for episode summaries.",
    }),
  })
  .strict()
  .openapi("RecallRequest");

export type RecallRequest = z.output<typeof RecallRequestSchema>;

export const RecallUrlQuerySchema = z
  .object({
    format: z.enum(["text", "json"]).optional(),
    locale: z.enum(LOCALES).optional(),
  })
  .strict();

export const MemoryItemSchema = RecalledMemorySchema.openapi("MemoryItem");
export const ForgottenItemSchema = RecalledTraceSchema.openapi("ForgottenItem");

export const RecallResponseSchema = z
  .object({
    items: z.array(z.union([MemoryItemSchema, ForgottenItemSchema])),
    /** How many nodes the search started from: the focus nodes, plus search hits with start=hybrid. */
    start_nodes: z.number().int(),
    reached_nodes: z.number().int(),
    /** The same memories as the plain-text answer: what a model reads. */
    text: z.string(),
  })
  .openapi("RecallResponse");

export type RecallResponse = z.infer<typeof RecallResponseSchema>;
