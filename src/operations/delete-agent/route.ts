/** deleteAgent: delete the agent, every memory, link, index entry, vector and queued task, in order with its writes. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { defineOperation } from "../../surfaces/operation";
import { audited } from "../../surfaces/audit";

/** How long DELETE waits for the deletion before answering 202 with its task. */
const DELETE_WAIT_MS = 25_000;

const route = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}",
  operationId: "deleteAgent",
  tags: ["agents"],
  summary: "Delete the agent: every memory, link, index entry, vector and queued task",
  description: "Runs after the tasks already queued. Answers 200 when done, or 202 with the task id if it takes longer.",
  request: { params: AgentPathSchema, query: EmptyQuerySchema, headers: WriteHeadersSchema },
  responses: {
    200: { description: "Deleted", content: { "application/json": { schema: z.object({ deleted: z.literal(true) }) } } },
    202: {
      description: "Deletion under way",
      content: { "application/json": { schema: z.object({ deleted: z.literal(false), task_id: z.string() }) } },
    },
    ...errorsOf({ write: true }),
  },
});

export const deleteAgent: Endpoint = {
  operation: defineOperation(route, {
    scope: "admin",
    sdk: {
      example: `const answer = await agent.deleteAgent();
if (!answer.deleted) await agent.waitForTask(answer.task_id);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const answer = unwrap(await env.MEMORY.deleteAgent("assistant-1"));`,
    },
    tool: {
      name: "delete_agent",
      title: "Erase the whole memory",
      description:
        "Erase this agent's entire memory irreversibly: every memory, link, index entry and queued task. Only when the user explicitly asks to delete everything the agent remembers; never to tidy up (compress_memories forgets gradually).",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId } = c.req.valid("param");
      const outcome = await agentOf(c, agentId).submit("deleteAgent", null, {
        waitMs: DELETE_WAIT_MS,
        ...writeOptions(c.req.valid("header")),
      });
      if (outcome.status === "failed") throw new Error(`agent deletion failed: ${outcome.error ?? "unknown error"}`);
      await audited(c, "agent.deleted", agentId, null, { task_id: outcome.taskIds[0] ?? null });
      if (outcome.status === "done") return c.json({ deleted: true as const }, 200);
      return c.json({ deleted: false as const, task_id: outcome.taskIds[0] ?? "" }, 202);
    }),
};
