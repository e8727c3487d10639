/** pinMemory (docs/design.md, "Pins"): a memory becomes a standing instruction, outside forgetting. */
import { createRoute } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { errorsOf, jsonAnswer } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { MEMORY_NOT_FOUND, MemoryPathSchema, NOT_APPLICABLE, pinState } from "../../surfaces/memory-routes";
import { OPERATION_WAIT_MS, PENDING_ANSWER, pendingBody, whenFailed } from "../../surfaces/pending";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { nodeIdArgument } from "../../surfaces/tool-args";
import { PinStateSchema } from "./task";

const PinSchema = PinStateSchema.openapi("MemoryPin", { description: "The memory's pin, and the agent's pins against its max_pins." });

const route = createRoute({
  operationId: "pinMemory",
  method: "post",
  path: "/v1/agents/{agentId}/memories/{nodeId}/pin",
  tags: ["memories"],
  summary: "Pin a memory: a standing instruction, never forgotten",
  description:
    "A pinned memory is outside forgetting: compression cycles never shorten or delete it and capacity never evicts it (delete or purge it on purpose). The context block lists pinned memories first, as standing instructions. Pinning a pinned memory changes nothing. 409 beyond the agent's `max_pins`, for an entity, or for a version already superseded (the current one is named).",
  request: { params: MemoryPathSchema, headers: WriteHeadersSchema },
  responses: {
    200: jsonAnswer(PinSchema, "Pinned"),
    202: PENDING_ANSWER,
    ...errorsOf({ body: true, write: true }),
    404: MEMORY_NOT_FOUND,
    409: NOT_APPLICABLE,
  },
});

export const pinMemory: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `const answer = await agent.pinMemory({ node_id: 12 });
if ("pins" in answer) console.log(answer.pinned, answer.pins, answer.max_pins);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const answer = unwrap(await env.MEMORY.pinMemory("assistant-1", { node_id: 12 }, { idempotencyKey: "req-3" }));
if ("pins" in answer) console.log(answer.pins, answer.max_pins);`,
    },
    pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, context and create_memory answers."),
    tool: {
      name: "pin_memory",
      title: "Pin a memory",
      description:
        "Pin a memory the user wants kept for good (a rule, a preference, a standing instruction such as 'always answer in French'): it is never forgotten, and the context block lists it first. Only when the user asks to keep it; a few per agent.",
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, nodeId } = c.req.valid("param");
      const outcome = await agentOf(c, agentId).submit(
        "pinMemory",
        { node_id: nodeId },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "pinMemory");
      const result = outcome.result;
      if (!result) return c.json(pendingBody(outcome), 202);
      return c.json(pinState(result, nodeId, "pin the current version"), 200);
    }),
};
