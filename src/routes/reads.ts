/** The read endpoints of one agent: task status, focus, node with its links, stats. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentIdSchema, AgentPathSchema, EmptyQuerySchema, errorResponses, errorsOf, NodeIdSchema, TaskIdSchema } from "../api/common";
import { TaskStatusSchema } from "../api/tasks";
import { FocusSchema, linksPageOf, LinksPageQuerySchema, NodeSchema, PingSchema, StatsSchema, TaskWaitQuerySchema } from "../api/views";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { agentOf } from "../api/agent-of";
import { z } from "@hono/zod-openapi";

export const taskRoute = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/tasks/{taskId}",
  operationId: "getTask",
  tags: ["tasks"],
  summary: "Status of a queued task",
  request: {
    params: z.object({ agentId: AgentIdSchema, taskId: TaskIdSchema }),
    query: TaskWaitQuerySchema,
  },
  responses: {
    200: { description: "The task", content: { "application/json": { schema: TaskStatusSchema } } },
    ...errorsOf({ notFound: true }),
  },
});

export const focusRoute = createRoute({
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

export const nodeRoute = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/nodes/{nodeId}",
  operationId: "getMemoryNode",
  tags: ["memory"],
  summary: "One node with its outgoing and incoming links",
  description:
    "The links are a page of each direction (by the far end's id, then the relation; `links_limit` per direction, default 200), with their totals; `links.next_cursor`, passed back as `links_cursor`, gives the next page.",
  request: { params: z.object({ agentId: AgentIdSchema, nodeId: NodeIdSchema }), query: LinksPageQuerySchema },
  responses: {
    200: { description: "The node", content: { "application/json": { schema: NodeSchema } } },
    ...errorsOf({ notFound: true }),
  },
});

export const statsRoute = createRoute({
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

export const pingRoute = createRoute({
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

export function registerReads(app: OpenAPIHono<AppEnv>): void {
  app.openapi(pingRoute, async (c) => {
    const agent = agentOf(c, c.req.valid("param").agentId);
    return c.json(await agent.stub.ping(agent.identity), 200);
  });
  app.openapi(taskRoute, async (c) => {
    const { agentId, taskId } = c.req.valid("param");
    const agent = agentOf(c, agentId);
    const task = await agent.stub.taskStatus(agent.identity, taskId, c.req.valid("query").wait_ms ?? 0);
    if (!task) throw new ApiError("not_found", `task ${taskId} not found`);
    return c.json(task, 200);
  });
  app.openapi(focusRoute, async (c) => {
    const agent = agentOf(c, c.req.valid("param").agentId);
    return c.json(await agent.stub.focusView(agent.identity), 200);
  });
  app.openapi(nodeRoute, async (c) => {
    const { agentId, nodeId } = c.req.valid("param");
    const agent = agentOf(c, agentId);
    const node = await agent.stub.node(agent.identity, nodeId, linksPageOf(c.req.valid("query")));
    if (!node) throw new ApiError("not_found", `node ${nodeId} not found`);
    return c.json(node, 200);
  });
  app.openapi(statsRoute, async (c) => {
    const agent = agentOf(c, c.req.valid("param").agentId);
    return c.json(await agent.stub.stats(agent.identity, c.req.valid("query").wait_ms ?? 0), 200);
  });
}
