/**
 * The agent's own types of a search: its query and its result (served by its route under
 * OpenAPI names, route.ts). Kept apart from the runner so that reading them pulls in
 * nothing but zod and the vocabulary.
 */
import { z } from "zod";
import { MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS } from "../../config/limits";
import { NODE_KINDS } from "../../vocabulary/node-kinds";
import { SEARCH_MODES } from "../../vocabulary/search-modes";
import { viewFields } from "../shared/node-fields";

const Time = z.number().int().min(MIN_TIMESTAMP_MS).max(MAX_TIMESTAMP_MS);

export const SearchQuerySchema = z
  .object({
    query: z.string().min(1).max(2000),
    mode: z.enum(SEARCH_MODES),
    top_k: z.number().int().min(1).max(100),
    time_range: z.object({ from: Time.optional(), to: Time.optional() }).strict().optional(),
    kinds: z.array(z.enum(NODE_KINDS)).min(1),
  })
  .strict();
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export const SearchHitSchema = z.object({
  ...viewFields("node_id", "kind", "content", "phrase", "speaker", "role", "source_message_ids"),
  time: z.number().int(),
  ...viewFields("created_at", "message_time", "conflicts_with"),
  score: z.number(),
  scores: z.object({ keyword: z.number().nullable(), vector: z.number().nullable() }),
});
export const SearchResultSchema = z.object({ mode: z.enum(SEARCH_MODES), items: z.array(SearchHitSchema) });
export type SearchResult = z.infer<typeof SearchResultSchema>;
