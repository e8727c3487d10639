import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentPathSchema, errorsOf } from "../api/common";
import { RecallRequestSchema, RecallResponseSchema, RecallUrlQuerySchema } from "../api/recall";
import { localePreference } from "../http/accept-language";
import type { AppEnv } from "../http/app-env";
import { agentOf } from "../api/agent-of";

export const recallRoute = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/recall",
  operationId: "recall",
  tags: ["memory"],
  summary: "Recall memories",
  description:
    "Breadth-first search from the agent's focus, `depth` layers out, optionally along the given relations only; memories matching the keywords are ranked (keyword hits, path strength, importance). Plain text by default (`[memory] …` or `[记忆] …` separated by `---`, forgotten traces last; the labels' language: `locale`, else Accept-Language, else the language of the agent's memories, else English); `format: json` (or `?format=json`) returns the items with ids, provenance and scores. Goes through the agent's queue, so it sees every remember accepted before it.",
  request: {
    params: AgentPathSchema,
    query: RecallUrlQuerySchema,
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
    ...errorsOf({ body: true }),
  },
});

export function registerRecall(app: OpenAPIHono<AppEnv>): void {
  app.openapi(recallRoute, async (c) => {
    const query = c.req.valid("query");
    const { format, locale, ...body } = c.req.valid("json");
    const result = await agentOf(c, c.req.valid("param").agentId).ask("recall", {
      ...body,
      ...localePreference(c, query.locale ?? locale),
    });
    if ((query.format ?? format) === "json") {
      return c.json(
        {
          items: [...result.memories, ...result.traces],
          start_nodes: result.start_nodes,
          reached_nodes: result.reached_nodes,
          text: result.text,
        },
        200,
      );
    }
    return c.text(result.text, 200);
  });
}
