/** searchMemories: every memory of the agent ranked by words (BM25), meaning (vectors) or both. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf, TextSchema } from "../../surfaces/common-schemas";
import { filterFields, MEMORY_FILTER_FIELDS } from "../../surfaces/memory-filter";
import { defineOperation } from "../../surfaces/operation";
import { LANGUAGES, READ } from "../../surfaces/tool-args";
import { SEARCH_MODES } from "../../vocabulary/search-modes";
import { SearchHitSchema } from "./schemas";
import { NODE_KINDS } from "../../vocabulary/node-kinds";

const SearchRequestSchema = z
  .object({
    query: TextSchema.trim().min(1).max(2000).openapi({ example: "第三方登录" }),
    mode: z.enum(SEARCH_MODES).default("hybrid").openapi({
      description: "keyword: BM25 full-text; vector: embedding cosine; hybrid: both, fused by a weighted sum of normalised scores.",
    }),
    top_k: z.number().int().min(1).max(100).default(10),
    ...MEMORY_FILTER_FIELDS,
    kinds: z
      .array(z.enum(NODE_KINDS))
      .min(1)
      .default(["segment", "memory"])
      .openapi({ description: "Node kinds to search: conversation segments and explicit memories by default." }),
  })
  .strict()
  .openapi("SearchRequest");

const SearchItemSchema = SearchHitSchema.openapi("SearchItem");

const SearchResponseSchema = z.object({ mode: z.enum(SEARCH_MODES), items: z.array(SearchItemSchema) }).openapi("SearchResponse");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/search",
  operationId: "searchMemories",
  tags: ["memory"],
  summary: "Search memories by keyword, vector or both",
  description:
    "Unlike recall, search does not start from the focus: it ranks every memory of the agent. keyword: BM25 over full-text (Chinese characters and character pairs, English stems); vector: cosine over embeddings; hybrid: both, fused by a weighted sum of normalised scores. Optional time range and node kinds. Items carry their source message ids.",
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    body: { required: true, content: { "application/json": { schema: SearchRequestSchema } } },
  },
  responses: {
    200: { description: "Ranked memories", content: { "application/json": { schema: SearchResponseSchema } } },
    ...errorsOf({ body: true }),
  },
});

export const searchMemories: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const { items } = await agent.searchMemories({ query: "Porto", mode: "hybrid", top_k: 5 });
for (const hit of items) console.log(hit.node_id, hit.score, hit.content);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const { items } = unwrap(await env.MEMORY.searchMemories("assistant-1", { query: "Porto", mode: "keyword" }));`,
    },
    tool: {
      name: "search_memories",
      title: "Search memories",
      description: `Search all of the agent's memories by words (keyword: BM25), meaning (vector) or both (hybrid, the default), optionally within one conversation (session_ids), by one speaker (speakers), with tags (metadata) or within a time range; returns ranked memories with their time, speaker and source message ids. Use it to look something up that recall does not reach, or to find when something was said. ${LANGUAGES}`,
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { query, mode, top_k, kinds, ...filter } = c.req.valid("json");
      // The agent takes times as milliseconds already (TimestampSchema converted them).
      const result = await agentOf(c, c.req.valid("param").agentId).ask("searchMemories", {
        query,
        mode,
        top_k,
        kinds,
        ...filterFields(filter),
      });
      return c.json(result, 200);
    }),
};
