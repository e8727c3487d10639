/** mergeEntities (docs/design.md, "Memory operations (as built)"): an entity is absorbed by another, its name kept as an alias. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentIdSchema, ErrorSchema, errorsOf, NodeIdSchema, jsonAnswer } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { defineOperation } from "../../surfaces/operation";
import { OPERATION_WAIT_MS, pendingBody, whenFailed, PENDING_ANSWER } from "../../surfaces/pending";
import { nodeIdArgument } from "../../surfaces/tool-args";
import { ApiError } from "../../http/errors";
import { MergeEntitiesResultSchema } from "./task";

const MergeRequestSchema = z
  .object({
    into: z
      .number()
      .int()
      .min(1)
      .max(2 ** 30)
      .openapi({ description: "The entity that survives." }),
  })
  .strict()
  .openapi("MergeRequest");

const Merged = MergeEntitiesResultSchema.options[0];

const MergedSchema = Merged.omit({ outcome: true }).openapi("EntityMerged");

const route = createRoute({
  operationId: "mergeEntities",
  method: "post",
  path: "/v1/agents/{agentId}/entities/{nodeId}/merge",
  tags: ["links"],
  summary: "Merge an entity into another",
  description:
    "The entity `nodeId` is absorbed by `into`: its links move to the survivor, its name (and aliases) become aliases of the survivor, it is deleted, and the focus follows.",
  request: {
    params: z.object({ agentId: AgentIdSchema, nodeId: NodeIdSchema }),
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: MergeRequestSchema } } },
  },
  responses: {
    200: jsonAnswer(MergedSchema, "Merged"),
    202: PENDING_ANSWER,
    ...errorsOf({ body: true, write: true }),
    404: jsonAnswer(ErrorSchema, "No such entity in this agent"),
    409: jsonAnswer(ErrorSchema, "Not two different entities"),
  },
});

export const mergeEntities: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `await agent.mergeEntities({ node_id: 31, into: 7 });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.mergeEntities("assistant-1", { node_id: 31, into: 7 }));`,
    },
    pathArgs: nodeIdArgument("The entity to merge away (an entity's node_id, e.g. from get_focus)."),
    tool: {
      name: "merge_entities",
      title: "Merge two entities",
      description:
        "Say that two entities are one (a nickname, an abbreviation, a translation): the entity is merged into `into`, its links move over, and its name is kept as an alias.",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, nodeId } = c.req.valid("param");
      const outcome = await agentOf(c, agentId).submit(
        "mergeEntities",
        { node_id: nodeId, into: c.req.valid("json").into },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "mergeEntities");
      const result = outcome.result;
      if (!result) return c.json(pendingBody(outcome), 202);
      switch (result.outcome) {
        case "merged": {
          const { outcome: _done, ...rest } = result;
          return c.json(rest, 200);
        }
        case "not_found":
          throw new ApiError("not_found", `entity ${result.node_id} not found`);
        case "not_an_entity":
          throw new ApiError("conflict", `node ${result.node_id} is a ${result.kind}, not an entity`);
        case "same_node":
          throw new ApiError("conflict", "an entity cannot be merged into itself");
      }
    }),
};
