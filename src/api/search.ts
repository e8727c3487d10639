import { z } from "@hono/zod-openapi";
import { TimestampSchema } from "./messages";

export const SearchRequestSchema = z
  .object({
    query: z.string().trim().min(1).max(2000).openapi({ example: "第三方登录" }),
    mode: z
      .enum(["keyword", "vector", "hybrid"])
      .default("hybrid")
      .openapi({ description: "keyword: BM25 full-text; vector: embedding cosine; hybrid: reciprocal-rank fusion of both." }),
    top_k: z.number().int().min(1).max(100).default(10),
    time_range: z
      .object({ from: TimestampSchema.optional(), to: TimestampSchema.optional() })
      .refine((r) => r.from === undefined || r.to === undefined || r.from <= r.to, "time_range.from must not be after time_range.to")
      .optional()
      .openapi({ description: "Inclusive bounds on a memory's time: its messages' timestamp, else when it was remembered." }),
    kinds: z
      .array(z.enum(["segment", "entity"]))
      .min(1)
      .default(["segment"]),
  })
  .openapi("SearchRequest");

export type SearchRequest = z.output<typeof SearchRequestSchema>;

export const SearchItemSchema = z
  .object({
    node_id: z.number().int(),
    kind: z.enum(["segment", "entity"]),
    content: z.string(),
    phrase: z.string(),
    speaker: z.string().nullable(),
    role: z.enum(["user", "assistant", "system"]).nullable(),
    source_message_ids: z.array(z.string()),
    /** The memory's time: its messages' timestamp, else when it was remembered (ms). */
    time: z.number().int(),
    created_at: z.number().int(),
    message_time: z.number().int().nullable(),
    /** The score the results are ordered by (BM25, cosine or fused, per mode). */
    score: z.number(),
    scores: z.object({ keyword: z.number().nullable(), vector: z.number().nullable() }),
  })
  .openapi("SearchItem");

export const SearchResponseSchema = z
  .object({ mode: z.enum(["keyword", "vector", "hybrid"]), items: z.array(SearchItemSchema) })
  .openapi("SearchResponse");

export type SearchItem = z.infer<typeof SearchItemSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
