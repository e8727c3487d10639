/** deleteMemory (docs/design.md, "Memory operations (as built)"): forget a memory now, or purge every trace of it. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { errorsOf, jsonAnswer } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { MEMORY_NOT_FOUND, MemoryPathSchema, memoryRefused, NOT_APPLICABLE } from "../../surfaces/memory-routes";
import { OPERATION_WAIT_MS, PENDING_ANSWER, pendingBody, whenFailed } from "../../surfaces/pending";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { audited } from "../../surfaces/audit";
import { nodeIdArgument } from "../../surfaces/tool-args";
import { DeleteMemoryResultSchema } from "./task";

const DeleteQuerySchema = z
  .object({
    purge: z
      .enum(["true", "false"])
      .optional()
      .openapi({ description: "Also remove every trace: dangling links, earlier versions, message ids (default false)." }),
  })
  .strict();

const ForgottenResult = DeleteMemoryResultSchema.options[0];
const ForgottenSchema = ForgottenResult.omit({ outcome: true })
  .extend({ deleted: z.literal(true) })
  .openapi("MemoryDeleted");

const route = createRoute({
  operationId: "deleteMemory",
  method: "delete",
  path: "/v1/agents/{agentId}/memories/{nodeId}",
  tags: ["memories"],
  summary: "Forget a memory now, or purge every trace of it",
  description:
    "Forget: the node goes at once; links pointing at it stay dangling, so a recall passing by shows that the agent once knew something there (a trace may name what it was about). `purge=true`: no surface returns a byte of its text afterwards: also every link into it, its earlier versions, the episodes holding them, the entities and aliases only they named, the message ids only they came from (a re-sent message is remembered again), and the results of the tasks that wrote them (their Idempotency-Keys then answer 409). A memory forgotten before can be purged by its id (its traces go). 409 for an entity or a superseded version (delete the current one).",
  request: { params: MemoryPathSchema, query: DeleteQuerySchema, headers: WriteHeadersSchema },
  responses: {
    200: jsonAnswer(ForgottenSchema, "Deleted"),
    202: PENDING_ANSWER,
    ...errorsOf({ body: true, write: true }),
    404: MEMORY_NOT_FOUND,
    409: NOT_APPLICABLE,
  },
});

export const deleteMemory: Endpoint = {
  operation: defineOperation(route, {
    // Forgetting is a write; a purge removes every trace, so it needs an admin key.
    scope: (query) => (query("purge") === "true" ? "admin" : "write"),
    sdk: {
      example: `await agent.deleteMemory({ node_id: 12, purge: true });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.deleteMemory("assistant-1", { node_id: 12, purge: true }));`,
    },
    pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, context and create_memory answers."),
    queryArgs: {
      purge: z
        .boolean()
        .optional()
        .describe(
          "true: remove every trace too (links into it, earlier versions, entities only it named); works on a memory forgotten before.",
        ),
    },
    tool: {
      name: "delete_memory",
      title: "Forget a memory",
      description:
        "Forget one memory now (links into it stay as a trace that something was known there); with purge also every trace. Only when the user asks to forget that specific thing.",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, nodeId } = c.req.valid("param");
      const purge = c.req.valid("query").purge === "true";
      const outcome = await agentOf(c, agentId).submit(
        "deleteMemory",
        { node_id: nodeId, purge },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "deleteMemory");
      const result = outcome.result;
      // A purge is audited once accepted (done, or still under way); a refused one purged nothing.
      if (purge && (!result || result.outcome === "forgotten")) {
        await audited(c, "memory.purged", agentId, String(nodeId), { task_id: outcome.taskIds[0] ?? null });
      }
      if (!result) return c.json(pendingBody(outcome), 202);
      switch (result.outcome) {
        case "forgotten": {
          const { outcome: _done, ...rest } = result;
          return c.json({ deleted: true as const, ...rest }, 200);
        }
        default:
          return memoryRefused(nodeId, result, {
            superseded: "its text lives on there; delete the current version (purge=true takes every version)",
          });
      }
    }),
};
