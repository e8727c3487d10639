/** The agent's state as it stands: a task's status, the focus, a node with its links, counts, and a ping. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../http/agent-of";
import { subApp, type Area } from "../../surfaces/endpoint";
import {
  AgentIdSchema,
  AgentPathSchema,
  EmptyQuerySchema,
  errorResponses,
  errorsOf,
  NodeIdSchema,
  TaskIdSchema,
} from "../../http/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { linksPageOf, LinksPageQuerySchema } from "../../http/paging";
import { linksPageArgs, nodeIdArgument, READ, waitMs } from "../../surfaces/tool-args";
import { TaskStatusViewSchema } from "../../agent/task-status";
import { ApiError } from "../../http/errors";
import { FocusViewSchema, NodeViewSchema, PingViewSchema, StatsViewSchema } from "../shared/node-view-schema";

const TaskStatusSchema = TaskStatusViewSchema.openapi("TaskStatus");
const FocusSchema = FocusViewSchema.openapi("Focus");
const NodeSchema = NodeViewSchema.openapi("Node");
const StatsSchema = StatsViewSchema.openapi("Stats");
const PingSchema = PingViewSchema.openapi("Ping");

/** Plain decimal only: "010", "1e3", "0x10" or "+5" are not read as some number of milliseconds. */
const WAIT_MS = /^(0|[1-9][0-9]{0,4})$/;

const TaskWaitQuerySchema = z
  .object({
    wait_ms: z
      .string()
      .regex(WAIT_MS, "wait_ms: milliseconds, 0–30000, in plain decimal")
      .transform(Number)
      .refine((n) => n <= 30_000, "wait_ms: at most 30000")
      .optional()
      // The transform hides the pattern from the generated document: stated here again.
      .openapi({
        description: "Wait up to this long (ms) for the work to finish before answering.",
        type: "string",
        pattern: WAIT_MS.source,
      }),
  })
  .strict();

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

const getFocus = defineOperation(focusRoute, {
  tool: {
    name: "get_focus",
    title: "Current focus",
    description:
      "The entities the agent is focused on right now, most recent first: recall starts from them, and their links do not weaken.",
    annotations: READ,
  },
});

const getMemoryNode = defineOperation(nodeRoute, {
  queryArgs: linksPageArgs,
  pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, focus and context answers.", Number.MAX_SAFE_INTEGER),
  tool: {
    name: "get_memory_node",
    title: "Read one memory",
    description:
      "Read one memory node by id: its full content, kind (segment, entity, memory, episode), keywords, importance, provenance (source message ids, speaker, time) and its links, including links to memories since forgotten.",
    annotations: READ,
  },
});

const getStats = defineOperation(statsRoute, {
  queryArgs: { wait_ms: waitMs },
  tool: {
    name: "get_stats",
    title: "Memory statistics",
    description:
      "Counts of the agent's memory: nodes by kind, links, dangling links (traces of forgotten memories), queued and finished tasks, characters held versus remembered. `wait_ms` first waits until queued work is done.",
    annotations: READ,
  },
});

const getTask = defineOperation(taskRoute, {
  pathArgs: {
    task_id: {
      param: "taskId",
      schema: z
        .string()
        .regex(/^tsk_[A-Za-z0-9]{8,40}$/)
        .describe("The task id a write answered with (task_id)."),
    },
  },
  queryArgs: { wait_ms: waitMs },
  tool: {
    name: "get_task",
    title: "Task status",
    description:
      "The status of a queued write (remember, compress_memories, update_config): queued, running, done with its result, or failed with the reason. `wait_ms` waits for it to finish.",
    annotations: READ,
  },
});

const ping = defineOperation(pingRoute, { tool: { reason: "a latency probe of the agent's object, nothing a model needs" } });

export const READS: Area = {
  operations: [getFocus, getMemoryNode, getStats, getTask, ping],
  routes: () =>
    subApp()
      .openapi(pingRoute, async (c) => {
        const agent = agentOf(c, c.req.valid("param").agentId);
        return c.json(await agent.stub.ping(agent.identity), 200);
      })
      .openapi(taskRoute, async (c) => {
        const { agentId, taskId } = c.req.valid("param");
        const agent = agentOf(c, agentId);
        const task = await agent.stub.taskStatus(agent.identity, taskId, c.req.valid("query").wait_ms ?? 0);
        if (!task) throw new ApiError("not_found", `task ${taskId} not found`);
        return c.json(task, 200);
      })
      .openapi(focusRoute, async (c) => {
        const agent = agentOf(c, c.req.valid("param").agentId);
        return c.json(await agent.stub.focusView(agent.identity), 200);
      })
      .openapi(nodeRoute, async (c) => {
        const { agentId, nodeId } = c.req.valid("param");
        const agent = agentOf(c, agentId);
        const node = await agent.stub.node(agent.identity, nodeId, linksPageOf(c.req.valid("query")));
        if (!node) throw new ApiError("not_found", `node ${nodeId} not found`);
        return c.json(node, 200);
      })
      .openapi(statsRoute, async (c) => {
        const agent = agentOf(c, c.req.valid("param").agentId);
        return c.json(await agent.stub.stats(agent.identity, c.req.valid("query").wait_ms ?? 0), 200);
      }),
};
