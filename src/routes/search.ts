import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentParamsSchema, errorResponses } from "../api/common";
import { SearchRequestSchema, SearchResponseSchema } from "../api/search";
import type { AppEnv } from "../http/app-env";
import { agentOf } from "./agent-of";

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/search",
  tags: ["memory"],
  summary: "Search memories by keyword, vector or both",
  description:
    "Unlike recall, search does not start from the focus: it ranks every memory of the agent. keyword: BM25 over full-text (Chinese words and English stems); vector: cosine over embeddings; hybrid: reciprocal-rank fusion of both. Optional time range and node kinds. Items carry their source message ids.",
  request: {
    params: AgentParamsSchema,
    body: { required: true, content: { "application/json": { schema: SearchRequestSchema } } },
  },
  responses: {
    200: { description: "Ranked memories", content: { "application/json": { schema: SearchResponseSchema } } },
    ...errorResponses,
  },
});

export function registerSearch(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { identity, stub } = agentOf(c, c.req.valid("param").agentId);
    return c.json(await stub.search(identity, c.req.valid("json")), 200);
  });
}
