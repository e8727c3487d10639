/** linkMemories (docs/design.md, "Memory operations (as built)"): link two memories, each named by id or by a description. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, ErrorSchema, errorsOf, TextSchema, jsonAnswer } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { defineOperation } from "../../surfaces/operation";
import { OPERATION_WAIT_MS, pendingBody, whenFailed, PENDING_ANSWER } from "../../surfaces/pending";
import { LANGUAGES, WRITE } from "../../surfaces/tool-args";
import { ApiError } from "../../http/errors";
import { EXPLICIT_LINK_RELATIONS, resolveRelation } from "../../vocabulary/relations";
import { LinkSchema } from "../../surfaces/memory-routes";

/** A relation of the explicit vocabulary, in Chinese or by its English name. */
const RelationSchema = TextSchema.trim()
  .refine((r) => (EXPLICIT_LINK_RELATIONS as readonly string[]).includes(resolveRelation(r)), {
    message: `relation: one of ${EXPLICIT_LINK_RELATIONS.join(", ")} or because, therefore, causes, cites, based_on, related`,
  })
  .transform(resolveRelation)
  .openapi({ example: "causes" });

const MemoryRefSchema = z
  .union([
    z
      .number()
      .int()
      .min(1)
      .max(2 ** 30),
    TextSchema.trim().min(1).max(2000),
  ])
  .openapi({ description: "A node id, or a description of the memory (resolved by the agent's own search)." });

const LinkRequestSchema = z
  .object({
    source: MemoryRefSchema,
    target: MemoryRefSchema,
    relation: RelationSchema,
    strength: z.number().gt(0).max(1).optional().openapi({ description: "Default 0.6; the link decays like any other." }),
  })
  .strict()
  .openapi("LinkRequest");

const route = createRoute({
  operationId: "linkMemories",
  method: "post",
  path: "/v1/agents/{agentId}/links",
  tags: ["links"],
  summary: "Link two memories",
  description:
    "`source` and `target` are node ids or descriptions (resolved by the agent's own hybrid search over its memories; when several candidates score alike the answer is 409 with them, and nothing is written). `relation`: 因为 所以 导致 引用 基于 相关 or because, therefore, causes, cites, based_on, related. `strength` (default 0.6) decays like any link's; linking again sets it.",
  request: {
    params: AgentPathSchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: LinkRequestSchema } } },
  },
  responses: {
    200: jsonAnswer(LinkSchema, "Linked"),
    202: PENDING_ANSWER,
    ...errorsOf({ body: true, write: true }),
    404: jsonAnswer(ErrorSchema, "A node id or description that matches no memory of this agent"),
    409: jsonAnswer(
      ErrorSchema,
      "An ambiguous description (`details.candidates`), the same memory at both ends, or a superseded version (`details.superseded_by`)",
    ),
  },
});

export const linkMemories: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `await agent.linkMemories({ source: 12, target: 15, relation: "causes", strength: 0.8 });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.linkMemories("assistant-1", { source: 12, target: 15, relation: "causes" }));`,
    },
    tool: {
      name: "link_memories",
      title: "Link two memories",
      description: `Say that two memories are related: each end is a node_id or a short description of the memory (found by the agent's own search; an ambiguous description answers 409 with the candidates to choose from). relation: causes, because, therefore, cites, based_on or related (or their Chinese names). The link strengthens both in recall and decays like any other. ${LANGUAGES}`,
      annotations: WRITE,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const body = c.req.valid("json");
      const ref = (r: number | string) => (typeof r === "number" ? { id: r } : { description: r });
      const outcome = await agentOf(c, c.req.valid("param").agentId).submit(
        "linkMemories",
        {
          source: ref(body.source),
          target: ref(body.target),
          relation: body.relation,
          ...(body.strength !== undefined ? { strength: body.strength } : {}),
        },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "linkMemories");
      const result = outcome.result;
      if (!result) return c.json(pendingBody(outcome), 202);
      switch (result.outcome) {
        case "linked":
          return c.json({ source: result.source, target: result.target, relation: result.relation, strength: result.strength }, 200);
        case "ambiguous":
          throw new ApiError("conflict", `the ${result.end} description matches several memories: name one by id`, {
            details: {
              end: result.end,
              description: result.description,
              candidates: result.candidates,
            },
          });
        case "not_found":
          throw new ApiError("not_found", `no memory matches the ${result.end}`, { details: { end: result.end } });
        case "same_node":
          throw new ApiError("conflict", `source and target are the same memory (${result.node_id})`);
        case "superseded":
          throw new ApiError(
            "conflict",
            `the ${result.end}, memory ${result.node_id}, was superseded by ${result.superseded_by}: link the current version`,
            { details: { end: result.end, superseded_by: result.superseded_by } },
          );
      }
    }),
};
