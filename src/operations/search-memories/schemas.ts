/**
 * The agent's own types of a search: its query and its result (served by its route under
 * OpenAPI names, route.ts). Kept apart from the runner so that reading them pulls in
 * nothing but zod and the vocabulary.
 */
import { z } from "zod";
import { MEMORY_FILTER_SHAPE } from "../../vocabulary/memory-filter";
import { NODE_KINDS } from "../../vocabulary/node-kinds";
import { SEARCH_MODES } from "../../vocabulary/search-modes";
import { viewFields } from "../shared/node-fields";

export const SearchQuerySchema = z
  .object({
    query: z.string().min(1).max(2000),
    mode: z.enum(SEARCH_MODES),
    top_k: z.number().int().min(1).max(100),
    kinds: z.array(z.enum(NODE_KINDS)).min(1),
    ...MEMORY_FILTER_SHAPE,
  })
  .strict();
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export const SearchHitSchema = z.object({
  ...viewFields("node_id", "kind", "content", "phrase", "speaker", "role", "source_message_ids"),
  time: z.number().int(),
  ...viewFields("created_at", "message_time", "session_id", "metadata", "expires_at", "conflicts_with"),
  score: z.number(),
  scores: z.object({ keyword: z.number().nullable(), vector: z.number().nullable() }),
});
export const SearchResultSchema = z.object({ mode: z.enum(SEARCH_MODES), items: z.array(SearchHitSchema) });
export type SearchResult = z.infer<typeof SearchResultSchema>;
