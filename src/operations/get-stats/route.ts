/** getStats: counts of nodes, links, queue and characters, after the queue is idle when asked. */
import { createRoute } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, errorResponses } from "../../surfaces/common-schemas";
import { READ, waitMs } from "../../surfaces/tool-args";
import { StatsViewSchema } from "./read";
import { TaskWaitQuerySchema } from "../../surfaces/task-wait";
import { defineOperation } from "../../surfaces/operation";

const StatsSchema = StatsViewSchema.openapi("Stats");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/stats",
  operationId: "getStats",
  tags: ["memory"],
  summary: "Counts of nodes, links, queue and characters",
  description: "`wait_ms` waits (up to 30 s) until the agent's queue is idle, compression cycles included, before answering.",
  request: { params: AgentPathSchema, query: TaskWaitQuerySchema },
  responses: {
    200: { description: "Statistics", content: { "application/json": { schema: StatsSchema } } },
    ...errorResponses,
  },
});

export const getStats: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const stats = await agent.getStats();
console.log(stats.nodes.total, stats.links.total, stats.focus);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const stats = unwrap(await env.MEMORY.getStats("assistant-1"));`,
    },
    queryArgs: { wait_ms: waitMs },
    tool: {
      name: "get_stats",
      title: "Memory statistics",
      description:
        "Counts of the agent's memory: nodes by kind, links, dangling links (traces of forgotten memories), queued and finished tasks, characters held versus remembered. `wait_ms` first waits until queued work is done.",
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const agent = agentOf(c, c.req.valid("param").agentId);
      return c.json(await agent.stub.stats(agent.identity, c.req.valid("query").wait_ms ?? 0), 200);
    }),
};
