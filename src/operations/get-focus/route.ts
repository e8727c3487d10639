/** getFocus: the focus LRU, most recent first. */
import { createRoute } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorResponses } from "../../surfaces/common-schemas";
import { READ } from "../../surfaces/tool-args";
import { FocusViewSchema } from "./schemas";
import { defineOperation } from "../../surfaces/operation";

const FocusSchema = FocusViewSchema.openapi("Focus");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/focus",
  operationId: "getFocus",
  tags: ["memory"],
  summary: "The focus LRU, most recent first",
  request: { params: AgentPathSchema, query: EmptyQuerySchema },
  responses: {
    200: { description: "The focus", content: { "application/json": { schema: FocusSchema } } },
    ...errorResponses,
  },
});

export const getFocus: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const { focus } = await agent.getFocus();
console.log(focus.map((entity) => entity.name));`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const { focus } = unwrap(await env.MEMORY.getFocus("assistant-1"));`,
    },
    tool: {
      name: "get_focus",
      title: "Current focus",
      description:
        "The entities the agent is focused on right now, most recent first: recall starts from them, and their links do not weaken.",
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const agent = agentOf(c, c.req.valid("param").agentId);
      return c.json(await agent.stub.focusView(agent.identity), 200);
    }),
};
