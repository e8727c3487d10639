import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentPathSchema, EmptyQuerySchema, errorsOf } from "../api/common";
import { SearchRequestSchema, SearchResponseSchema } from "../api/search";
import type { AppEnv } from "../http/app-env";
import { agentOf } from "../api/agent-of";

export const searchRoute = createRoute({
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

export function registerSearch(app: OpenAPIHono<AppEnv>): void {
  app.openapi(searchRoute, async (c) => {
    const request = c.req.valid("json");
    const { time_range, ...rest } = request;
    // The agent takes times as milliseconds already (TimestampSchema converted them).
    const timeRange = time_range
      ? {
          ...(time_range.from !== undefined ? { from: time_range.from } : {}),
          ...(time_range.to !== undefined ? { to: time_range.to } : {}),
        }
      : undefined;
    const result = await agentOf(c, c.req.valid("param").agentId).ask("searchMemories", {
      ...rest,
      ...(timeRange ? { time_range: timeRange } : {}),
    });
    return c.json(result, 200);
  });
}
