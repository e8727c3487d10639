/**
 * Links between memories, feedback on the memories a caller used, and entity merges
 * (docs/design.md, "Memory operations (as built)").
 */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../http/agent-of";
import { subApp, type Area } from "../../surfaces/endpoint";
import { AgentIdSchema, AgentPathSchema, ErrorSchema, errorsOf, NodeIdSchema, TextSchema } from "../../http/common-schemas";
import { WriteHeadersSchema } from "../../http/headers";
import { defineOperation } from "../../surfaces/operation";
import { OPERATION_WAIT_MS, pendingBody, PendingSchema, whenFailed } from "../../http/pending";
import { LANGUAGES, nodeIdArgument, WRITE } from "../../surfaces/tool-args";
import { ApiError } from "../../http/errors";
import { MergeResultSchema } from "../merge-entities/task";
import { ReportFeedbackResultSchema } from "../report-feedback/task";
import { EXPLICIT_LINK_RELATIONS, resolveRelation } from "../../vocabulary/relations";

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

const LinkSchema = z
  .object({ source: z.number().int(), target: z.number().int(), relation: z.string(), strength: z.number() })
  .openapi("Link");

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

const FeedbackRequestSchema = z
  .object({
    node_ids: z
      .array(
        z
          .number()
          .int()
          .min(1)
          .max(2 ** 30),
      )
      .min(1)
      .max(100),
    used: z.boolean().openapi({ description: "Whether the caller really used these memories (only used ones are reinforced)." }),
  })
  .strict()
  .openapi("FeedbackRequest");

const FeedbackSchema = ReportFeedbackResultSchema.openapi("Feedback");

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

const Merged = MergeResultSchema.options[0];
const MergedSchema = Merged.omit({ outcome: true }).openapi("EntityMerged");

const json = <S>(schema: S, description: string) => ({ description, content: { "application/json": { schema } } });
const pending = json(PendingSchema, "Accepted and queued behind earlier writes: follow the task");
/** A queued write (422, 429) that may take a JSON body (415). */
const writeErrors = errorsOf({ body: true, write: true });

export const linkRoute = createRoute({
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
    200: json(LinkSchema, "Linked"),
    202: pending,
    ...writeErrors,
    404: json(ErrorSchema, "A node id or description that matches no memory of this agent"),
    409: json(
      ErrorSchema,
      "An ambiguous description (`details.candidates`), the same memory at both ends, or a superseded version (`details.superseded_by`)",
    ),
  },
});

export const unlinkRoute = createRoute({
  operationId: "unlinkMemories",
  method: "delete",
  path: "/v1/agents/{agentId}/links",
  tags: ["links"],
  summary: "Delete one link by its source, target and relation",
  request: { params: AgentPathSchema, query: UnlinkQuerySchema, headers: WriteHeadersSchema },
  responses: {
    200: json(LinkSchema.extend({ deleted: z.literal(true) }).openapi("LinkDeleted"), "Deleted"),
    202: pending,
    ...writeErrors,
    404: json(ErrorSchema, "No such link"),
  },
});

export const feedbackRoute = createRoute({
  operationId: "reportFeedback",
  method: "post",
  path: "/v1/agents/{agentId}/feedback",
  tags: ["links"],
  summary: "Report the memories you used: they are reinforced",
  description:
    "Recall never changes strengths. Reporting memories as used (`used: true`) raises each of their outgoing links by `reinforce_step` (default 0.3, capped at 1), at most once per memory per compression cycle; ids that are not memories of this agent are skipped with a reason.",
  request: {
    params: AgentPathSchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: FeedbackRequestSchema } } },
  },
  responses: { 200: json(FeedbackSchema, "What was reinforced"), 202: pending, ...writeErrors },
});

export const mergeEntitiesRoute = createRoute({
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
    200: json(MergedSchema, "Merged"),
    202: pending,
    ...writeErrors,
    404: json(ErrorSchema, "No such entity in this agent"),
    409: json(ErrorSchema, "Not two different entities"),
  },
});

const linkMemories = defineOperation(linkRoute, {
  tool: {
    name: "link_memories",
    title: "Link two memories",
    description: `Say that two memories are related: each end is a node_id or a short description of the memory (found by the agent's own search; an ambiguous description answers 409 with the candidates to choose from). relation: causes, because, therefore, cites, based_on or related (or their Chinese names). The link strengthens both in recall and decays like any other. ${LANGUAGES}`,
    annotations: WRITE,
  },
});

const reportFeedback = defineOperation(feedbackRoute, {
  tool: {
    name: "report_feedback",
    title: "Report which memories helped",
    description:
      "After answering with recalled memories, report the node_ids you used (used: true): their links are reinforced, so they are forgotten more slowly. Once per memory per forgetting cycle counts.",
    annotations: WRITE,
  },
});

const unlinkMemories = defineOperation(unlinkRoute, {
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
});

const mergeEntities = defineOperation(mergeEntitiesRoute, {
  pathArgs: nodeIdArgument("The entity to merge away (an entity's node_id, e.g. from get_focus)."),
  tool: {
    name: "merge_entities",
    title: "Merge two entities",
    description:
      "Say that two entities are one (a nickname, an abbreviation, a translation): the entity is merged into `into`, its links move over, and its name is kept as an alias.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

export const LINKS: Area = {
  operations: [linkMemories, reportFeedback, unlinkMemories, mergeEntities],
  routes: () =>
    subApp()
      .openapi(linkRoute, async (c) => {
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
        whenFailed(outcome, "link");
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
      })
      .openapi(unlinkRoute, async (c) => {
        const { source, target, relation } = c.req.valid("query");
        const outcome = await agentOf(c, c.req.valid("param").agentId).submit(
          "unlinkMemories",
          { source, target, relation },
          { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
        );
        whenFailed(outcome, "unlink");
        const result = outcome.result;
        if (!result) return c.json(pendingBody(outcome), 202);
        if (result.outcome === "not_found") throw new ApiError("not_found", `no link ${source} → ${target} (${relation})`);
        return c.json({ deleted: true as const, source, target, relation, strength: result.strength }, 200);
      })
      .openapi(feedbackRoute, async (c) => {
        const outcome = await agentOf(c, c.req.valid("param").agentId).submit("reportFeedback", c.req.valid("json"), {
          waitMs: OPERATION_WAIT_MS,
          ...writeOptions(c.req.valid("header")),
        });
        whenFailed(outcome, "feedback");
        if (!outcome.result) return c.json(pendingBody(outcome), 202);
        return c.json(outcome.result, 200);
      })
      .openapi(mergeEntitiesRoute, async (c) => {
        const { agentId, nodeId } = c.req.valid("param");
        const outcome = await agentOf(c, agentId).submit(
          "mergeEntities",
          { node_id: nodeId, into: c.req.valid("json").into },
          { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
        );
        whenFailed(outcome, "merge");
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
