import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentPathSchema, EmptyQuerySchema, errorsOf } from "../api/common";
import { WriteHeadersSchema } from "../api/headers";
import { RememberAcceptedSchema, RememberRequestSchema } from "../api/messages";
import type { AppEnv } from "../http/app-env";
import { agentOf, writeOptions } from "../api/agent-of";

export const rememberRoute = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/remember",
  operationId: "remember",
  tags: ["memory"],
  summary: "Remember chat messages",
  description:
    "Validates the messages, appends one task to the agent's durable queue and answers at once. The queue then segments the text, extracts phrases, keywords and entities, updates the focus and links the new memories into the network, then runs one compression cycle. A message whose `id` the agent already holds is not stored again.",
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: RememberRequestSchema } } },
  },
  responses: {
    202: { description: "Accepted and durably queued", content: { "application/json": { schema: RememberAcceptedSchema } } },
    ...errorsOf({ body: true, write: true }),
  },
});

export function registerRemember(app: OpenAPIHono<AppEnv>): void {
  app.openapi(rememberRoute, async (c) => {
    const { messages } = c.req.valid("json");
    const outcome = await agentOf(c, c.req.valid("param").agentId).submit("remember", { messages }, writeOptions(c.req.valid("header")));
    return c.json({ task_id: outcome.taskIds[0] ?? "", status: "queued" as const, queued_ahead: outcome.queuedAhead }, 202);
  });
}
