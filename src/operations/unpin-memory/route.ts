/** unpinMemory (docs/design.md, "Pins"): the memory is forgotten like any other again. */
import { createRoute } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { errorsOf, jsonAnswer } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { MEMORY_NOT_FOUND, MemoryPathSchema, NOT_APPLICABLE, pinState } from "../../surfaces/memory-routes";
import { OPERATION_WAIT_MS, PENDING_ANSWER, pendingBody, whenFailed } from "../../surfaces/pending";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { nodeIdArgument } from "../../surfaces/tool-args";
import { PinStateSchema } from "../pin-memory/task";

const PinSchema = PinStateSchema.openapi("MemoryPin");

const route = createRoute({
  operationId: "unpinMemory",
  method: "delete",
  path: "/v1/agents/{agentId}/memories/{nodeId}/pin",
  tags: ["memories"],
  summary: "Unpin a memory: it is forgotten like any other again",
  description:
    "From the next compression cycle on the memory fades with its links, as any memory does. A memory that is not pinned is answered as it stands. 409 for an entity or a version already superseded (the current one is named).",
  request: { params: MemoryPathSchema, headers: WriteHeadersSchema },
  responses: {
    200: jsonAnswer(PinSchema, "Unpinned"),
    202: PENDING_ANSWER,
    ...errorsOf({ body: true, write: true }),
    404: MEMORY_NOT_FOUND,
    409: NOT_APPLICABLE,
  },
});

export const unpinMemory: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `await agent.unpinMemory({ node_id: 12 });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.unpinMemory("assistant-1", { node_id: 12 }));`,
    },
    pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, context and create_memory answers."),
    tool: {
      name: "unpin_memory",
      title: "Unpin a memory",
      description: "Unpin a memory the user no longer wants kept for good: from now on it fades and is forgotten like any other.",
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, nodeId } = c.req.valid("param");
      const outcome = await agentOf(c, agentId).submit(
        "unpinMemory",
        { node_id: nodeId },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "unpinMemory");
      const result = outcome.result;
      if (!result) return c.json(pendingBody(outcome), 202);
      return c.json(pinState(result, nodeId, "its pin moved to the current version"), 200);
    }),
};
