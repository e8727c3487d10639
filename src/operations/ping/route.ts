/** ping: reach the agent's Durable Object and run one trivial database query. */
import { createRoute } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorResponses } from "../../surfaces/common-schemas";
import { PingViewSchema } from "./schemas";
import { defineOperation } from "../../surfaces/operation";

const PingSchema = PingViewSchema.openapi("Ping");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/ping",
  operationId: "ping",
  tags: ["service"],
  summary: "Reach the agent's Durable Object and run one trivial database query",
  description: "A per-agent liveness check; benchmarks use it as the latency floor of any agent request.",
  request: { params: AgentPathSchema, query: EmptyQuerySchema },
  responses: {
    200: { description: "Reachable", content: { "application/json": { schema: PingSchema } } },
    ...errorResponses,
  },
});

export const ping: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `console.log(await agent.ping());`,
    },
    tool: { reason: "a latency probe of the agent's object, nothing a model needs" },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const agent = agentOf(c, c.req.valid("param").agentId);
      return c.json(await agent.stub.ping(agent.identity), 200);
    }),
};
