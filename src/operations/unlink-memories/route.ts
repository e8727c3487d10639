/** unlinkMemories (docs/design.md, "Memory operations (as built)"): delete one link by its source, target and relation. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, ErrorSchema, errorsOf, NodeIdSchema, TextSchema, jsonAnswer } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { defineOperation } from "../../surfaces/operation";
import { ApiError } from "../../http/errors";
import { resolveRelation } from "../../vocabulary/relations";
import { LinkSchema } from "../../surfaces/memory-routes";
import { PENDING_ANSWER, OPERATION_WAIT_MS, pendingBody, whenFailed } from "../../surfaces/pending";

const UnlinkQuerySchema = z
  .object({
    source: NodeIdSchema.openapi({ param: { name: "source", in: "query" } }),
    target: NodeIdSchema.openapi({ param: { name: "target", in: "query" } }),
    relation: RelationNameQuery(),
  })
  .strict();

/** Any relation name of a link (stored name or English alias), for deleting one. */
function RelationNameQuery() {
  return TextSchema.trim()
    .min(1)
    .max(50)
    .transform(resolveRelation)
    .openapi({ param: { name: "relation", in: "query" }, example: "causes" });
}

const route = createRoute({
  operationId: "unlinkMemories",
  method: "delete",
  path: "/v1/agents/{agentId}/links",
  tags: ["links"],
  summary: "Delete one link by its source, target and relation",
  request: { params: AgentPathSchema, query: UnlinkQuerySchema, headers: WriteHeadersSchema },
  responses: {
    200: jsonAnswer(LinkSchema.extend({ deleted: z.literal(true) }).openapi("LinkDeleted"), "Deleted"),
    202: PENDING_ANSWER,
    ...errorsOf({ body: true, write: true }),
    404: jsonAnswer(ErrorSchema, "No such link"),
  },
});

export const unlinkMemories: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `await agent.unlinkMemories({ source: 12, target: 15, relation: "causes" });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.unlinkMemories("assistant-1", { source: 12, target: 15, relation: "causes" }));`,
    },
    queryArgs: {
      source: z.number().int().min(1).describe("The link's source node id."),
      target: z.number().int().min(1).describe("The link's target node id."),
      relation: z.string().describe("The link's relation, as get_memory_node lists it."),
    },
    tool: {
      name: "unlink_memories",
      title: "Remove a link",
      description: "Remove one link between two memories (for a link made by mistake with link_memories).",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { source, target, relation } = c.req.valid("query");
      const outcome = await agentOf(c, c.req.valid("param").agentId).submit(
        "unlinkMemories",
        { source, target, relation },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "unlinkMemories");
      const result = outcome.result;
      if (!result) return c.json(pendingBody(outcome), 202);
      if (result.outcome === "not_found") throw new ApiError("not_found", `no link ${source} → ${target} (${relation})`);
      return c.json({ deleted: true as const, source, target, relation, strength: result.strength }, 200);
    }),
};
