/** updateMemory (docs/design.md, "Memory operations (as built)"): the new content supersedes the memory. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { errorsOf, jsonAnswer } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { MEMORY_NOT_FOUND, MemoryContentSchema, MemoryPathSchema, memoryRefused, NOT_APPLICABLE } from "../../surfaces/memory-routes";
import { OPERATION_WAIT_MS, PENDING_ANSWER, pendingBody, whenFailed } from "../../surfaces/pending";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { LANGUAGES, nodeIdArgument, WRITE } from "../../surfaces/tool-args";
import { WRITE_SCOPE_FIELDS } from "../../surfaces/memory-filter";

const UpdateRequestSchema = z
  .object({
    content: MemoryContentSchema.optional().openapi({ description: "The corrected text: a new version supersedes the memory." }),
    metadata: WRITE_SCOPE_FIELDS.metadata.unwrap().nullable().optional().openapi({
      description: "The memory's tags, replaced whole (null: none). Without content, set on the memory itself (no new version).",
    }),
    expires_at: WRITE_SCOPE_FIELDS.expires_at.unwrap().nullable().optional().openapi({
      description: "When the memory stops existing (null: never). Without content, set on the memory itself.",
    }),
  })
  .strict()
  .refine((r) => r.content !== undefined || r.metadata !== undefined || r.expires_at !== undefined, "give content, metadata or expires_at")
  .openapi("MemoryUpdate");

const UpdatedSchema = z
  .object({ node_id: z.number().int(), supersedes: z.number().int().nullable(), links_moved: z.number().int() })
  .openapi("MemoryUpdated", {
    description: "The new version's id (the old one is history now); without content, the memory's own id and supersedes null.",
  });

const route = createRoute({
  operationId: "updateMemory",
  method: "patch",
  path: "/v1/agents/{agentId}/memories/{nodeId}",
  tags: ["memories"],
  summary: "Update a memory: the new content supersedes it",
  description:
    "The new content becomes a new node that takes over the old one's links to entities and its explicit links (上文/下文 and episode links stay with the old version); 更正 (corrects) links it to the old one, which becomes history. Recall, search and listings return the new content only. The new version keeps the memory's session, tags and expiry unless `metadata` or `expires_at` replace them; without `content`, those two are set on the memory itself. 409 for an entity or a version already superseded (the current one is named).",
  request: {
    params: MemoryPathSchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: UpdateRequestSchema } } },
  },
  responses: {
    200: jsonAnswer(UpdatedSchema, "Updated"),
    202: PENDING_ANSWER,
    ...errorsOf({ body: true, write: true }),
    404: MEMORY_NOT_FOUND,
    409: NOT_APPLICABLE,
  },
});

export const updateMemory: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `await agent.updateMemory({ node_id: 12, content: "Ines moved to Lisbon in June." });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.updateMemory("assistant-1", { node_id: 12, content: "Ines moved to Lisbon in June." }));`,
    },
    pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, context and create_memory answers."),
    tool: {
      name: "update_memory",
      title: "Correct a memory",
      description: `Correct a memory: the new content becomes a new version that takes over its entity and explicit links; the old one becomes history that recall and search no longer return. Use it when the user corrects something the agent remembered. ${LANGUAGES}`,
      annotations: WRITE,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, nodeId } = c.req.valid("param");
      const { content, metadata, expires_at } = c.req.valid("json");
      const outcome = await agentOf(c, agentId).submit(
        "updateMemory",
        {
          node_id: nodeId,
          ...(content !== undefined ? { content: content.trim() } : {}),
          ...(metadata !== undefined ? { metadata } : {}),
          ...(expires_at !== undefined ? { expires_at } : {}),
        },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "updateMemory");
      const result = outcome.result;
      if (!result) return c.json(pendingBody(outcome), 202);
      switch (result.outcome) {
        case "updated":
          return c.json({ node_id: result.node_id, supersedes: result.supersedes, links_moved: result.links_moved }, 200);
        default:
          return memoryRefused(nodeId, result, { entity: "merge entities instead", superseded: "update the current version" });
      }
    }),
};
