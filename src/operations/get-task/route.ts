/** getTask: the status of a queued task, waiting for it up to `wait_ms`. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentIdSchema, errorsOf, TaskIdSchema } from "../../surfaces/common-schemas";
import { READ, waitMs } from "../../surfaces/tool-args";
import { TaskStatusViewSchema } from "../../agent/task-status";
import { ApiError } from "../../http/errors";
import { TaskWaitQuerySchema } from "../../surfaces/task-wait";
import { defineOperation } from "../../surfaces/operation";

const TaskStatusSchema = TaskStatusViewSchema.openapi("TaskStatus");

const route = createRoute({
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

export const getTask: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const task = await agent.getTask({ task_id: "tsk_1", wait_ms: 5_000 });
if (task.status === "failed") console.error(task.error);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const task = unwrap(await env.MEMORY.getTask("assistant-1", { task_id: "tsk_1", wait_ms: 5_000 }));`,
    },
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
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, taskId } = c.req.valid("param");
      const agent = agentOf(c, agentId);
      const task = await agent.stub.taskStatus(agent.identity, taskId, c.req.valid("query").wait_ms ?? 0);
      if (!task) throw new ApiError("not_found", `task ${taskId} not found`);
      return c.json(task, 200);
    }),
};
