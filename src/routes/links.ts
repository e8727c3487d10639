/**
 * Links between memories, feedback on the memories a caller used, and entity merges
 * (docs/design.md, "Memory operations").
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentIdSchema, AgentPathSchema, ErrorSchema, errorsOf, NodeIdSchema } from "../api/common";
import { WriteHeadersSchema } from "../api/headers";
import {
  FeedbackRequestSchema,
  FeedbackSchema,
  LinkRequestSchema,
  LinkSchema,
  MergedSchema,
  MergeRequestSchema,
  OPERATION_WAIT_MS,
  PendingSchema,
  UnlinkQuerySchema,
} from "../api/memories";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { agentOf, writeOptions } from "../api/agent-of";
import { pendingBody, whenFailed } from "../api/pending";

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

export function registerLinks(app: OpenAPIHono<AppEnv>): void {
  app.openapi(linkRoute, async (c) => {
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
  });

  app.openapi(unlinkRoute, async (c) => {
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
  });

  app.openapi(feedbackRoute, async (c) => {
    const outcome = await agentOf(c, c.req.valid("param").agentId).submit("reportFeedback", c.req.valid("json"), {
      waitMs: OPERATION_WAIT_MS,
      ...writeOptions(c.req.valid("header")),
    });
    whenFailed(outcome, "feedback");
    if (!outcome.result) return c.json(pendingBody(outcome), 202);
    return c.json(outcome.result, 200);
  });

  app.openapi(mergeEntitiesRoute, async (c) => {
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
  });
}
