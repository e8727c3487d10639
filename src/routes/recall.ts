import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentParamsSchema, errorResponses } from "../api/common";
import { RecallQuerySchema, RecallRequestSchema, RecallResponseSchema } from "../api/recall";
import type { AppEnv } from "../http/app-env";
import { formatRecall } from "../memory/format";
import { agentOf } from "./agent-of";

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/recall",
  tags: ["memory"],
  summary: "Recall memories",
  description:
    "Breadth-first search from the agent's focus, `depth` layers out, optionally along the given relations only; memories matching the keywords are ranked (keyword hits, path strength, importance). Plain text by default (`[记忆] …` separated by `---`, forgotten traces last); `format: json` (or `?format=json`) returns the items with ids, provenance and scores. Goes through the agent's queue, so it sees every remember accepted before it.",
  request: {
    params: AgentParamsSchema,
    query: RecallQuerySchema,
    body: { required: true, content: { "application/json": { schema: RecallRequestSchema } } },
  },
  responses: {
    200: {
      description: "The recalled memories",
      content: {
        "text/plain": { schema: z.string() },
        "application/json": { schema: RecallResponseSchema },
      },
    },
    ...errorResponses,
  },
});

export function registerRecall(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const query = c.req.valid("query");
    const body = c.req.valid("json");
    const request = { ...body, format: query.format ?? body.format, locale: query.locale ?? body.locale };
    const { identity, stub } = agentOf(c, agentId);
    const outcome = await stub.recall(identity, request);
    if (request.format === "json") {
      return c.json(
        { items: [...outcome.memories, ...outcome.traces], start_nodes: outcome.startNodes, reached_nodes: outcome.reachedNodes },
        200,
      );
    }
    const text = formatRecall(
      outcome.memories,
      outcome.traces.map((t) => ({ sourcePhrase: t.phrase })),
      request.locale,
    );
    return c.text(text, 200);
  });
}
