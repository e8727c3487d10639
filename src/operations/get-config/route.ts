/** getConfig (docs/design.md, "Parameters"): the agent's parameters. */
import { createRoute } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorResponses } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { ConfigSchema } from "../../surfaces/agent-config";
import { READ } from "../../surfaces/tool-args";

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/config",
  operationId: "getConfig",
  tags: ["config"],
  summary: "The agent's parameters",
  request: { params: AgentPathSchema, query: EmptyQuerySchema },
  responses: {
    200: { description: "Parameters", content: { "application/json": { schema: ConfigSchema } } },
    ...errorResponses,
  },
});

export const getConfig: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const config = await agent.getConfig();
console.log(config.decay_rate, config.focus_limit);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const config = unwrap(await env.MEMORY.getConfig("assistant-1"));`,
    },
    tool: {
      name: "get_config",
      title: "Memory parameters",
      description:
        "The agent's memory parameters: focus size, link decay per compression cycle, deletion threshold, capacity, automatic compression.",
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const agent = agentOf(c, c.req.valid("param").agentId);
      return c.json(await agent.stub.config(agent.identity), 200);
    }),
};
