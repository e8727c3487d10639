import { z } from "@hono/zod-openapi";
import { SEARCH_MODES, SearchHitSchema } from "../operations/views/search-memories-schemas";
import { NODE_KINDS } from "../vocabulary/node-kinds";
import { TextSchema } from "./common";
import { TimestampSchema } from "./messages";

export const SearchRequestSchema = z
  .object({
    query: TextSchema.trim().min(1).max(2000).openapi({ example: "第三方登录" }),
    mode: z.enum(SEARCH_MODES).default("hybrid").openapi({
      description: "keyword: BM25 full-text; vector: embedding cosine; hybrid: both, fused by a weighted sum of normalised scores.",
    }),
    top_k: z.number().int().min(1).max(100).default(10),
    time_range: z
      .object({ from: TimestampSchema.optional(), to: TimestampSchema.optional() })
      .strict()
      .refine((r) => r.from === undefined || r.to === undefined || r.from <= r.to, "time_range.from must not be after time_range.to")
      .optional()
      .openapi({ description: "Inclusive bounds on a memory's time: its messages' timestamp, else when it was remembered." }),
    kinds: z
      .array(z.enum(NODE_KINDS))
      .min(1)
      .default(["segment", "memory"])
      .openapi({ description: "Node kinds to search: conversation segments and explicit memories by default." }),
  })
  .strict()
  .openapi("SearchRequest");

export const SearchItemSchema = SearchHitSchema.openapi("SearchItem");

export const SearchResponseSchema = z.object({ mode: z.enum(SEARCH_MODES), items: z.array(SearchItemSchema) }).openapi("SearchResponse");
