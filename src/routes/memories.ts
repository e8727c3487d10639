/**
 * Memories (docs/design.md, "Memory operations"): write an explicit memory, read one (with its history), list them,
 * update one by supersession, delete or purge one.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentPathSchema, ErrorSchema, errorResponses, errorsOf } from "../api/common";
import { WriteHeadersSchema } from "../api/headers";
import {
  decodeMemoryCursor,
  DEFAULT_MEMORY_PAGE,
  DeleteQuerySchema,
  encodeMemoryCursor,
  ForgottenSchema,
  DEFAULT_HISTORY_PAGE,
  HistoryQuerySchema,
  HistorySchema,
  kindsOf,
  MemoryCreatedSchema,
  MemoryListQuerySchema,
  MemoryListSchema,
  MemoryPathSchema,
  MemoryRequestSchema,
  MemorySchema,
  OPERATION_WAIT_MS,
  PendingSchema,
  UpdatedSchema,
  UpdateRequestSchema,
} from "../api/memories";
import { linksPageOf, LinksPageQuerySchema } from "../api/views";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { agentOf, writeOptions } from "../api/agent-of";
import { pendingBody, whenFailed } from "../api/pending";

const json = <S>(schema: S, description: string) => ({ description, content: { "application/json": { schema } } });
const notFound = json(ErrorSchema, "No such memory in this agent");
const conflict = json(ErrorSchema, "Not applicable to this node as it stands");
const pending = json(PendingSchema, "Accepted and queued behind earlier writes: follow the task");
/** A queued write (422, 429) that may take a JSON body (415). */
const writeErrors = errorsOf({ body: true, write: true });

const MEMORY_TYPES_EN = { 事件: "event", 事实: "fact", 关系: "relation", 观点: "opinion" } as const;

export const createMemoryRoute = createRoute({
  operationId: "createMemory",
  method: "post",
  path: "/v1/agents/{agentId}/memories",
  tags: ["memories"],
  summary: "Write an explicit memory",
  description:
    "A remember of one pre-cut segment: `{content}` or the structured form `{subject, memory_type, topic, object?, attributes?}`, whose sentence is composed in the language of its words. Relative times (yesterday, last Friday, 昨天, 上周五…) are resolved to dates against `timestamp`. The memory is extracted, moves the focus and links to it like a remember; its links to its subject and object entities start at `importance`. It is checked for conflicts with the memories it shares an entity with (an update supersedes, a contradiction is linked), then one compression cycle follows. Answers 201 with the node when done within the wait, else 202 with the task.",
  request: {
    params: AgentPathSchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: MemoryRequestSchema } } },
  },
  responses: { 201: json(MemoryCreatedSchema, "Written"), 202: pending, ...writeErrors },
});

export const getMemoryRoute = createRoute({
  operationId: "getMemory",
  method: "get",
  path: "/v1/agents/{agentId}/memories/{nodeId}",
  tags: ["memories"],
  summary: "One memory (or entity) with its links, provenance, facts, conflicts, aliases and history",
  description:
    "Its links are a page of each direction with their totals (`links_limit`, `links_cursor`: as GET nodes/{nodeId}); its history lists up to 50 versions, oldest first, and `history_next_cursor` continues through GET …/history.",
  request: { params: MemoryPathSchema, query: LinksPageQuerySchema },
  responses: { 200: json(MemorySchema, "The memory"), ...errorResponses, 404: notFound },
});

export const memoryHistoryRoute = createRoute({
  operationId: "getMemoryHistory",
  method: "get",
  path: "/v1/agents/{agentId}/memories/{nodeId}/history",
  tags: ["memories"],
  summary: "The versions of a memory, oldest first",
  description:
    "Earlier versions were corrected by a later one (更正); they stay readable until forgetting takes them. A page of at most `limit` (default 50, at most 200) with the total; `next_cursor`, passed back as `cursor`, gives the next page.",
  request: { params: MemoryPathSchema, query: HistoryQuerySchema },
  responses: { 200: json(HistorySchema, "The versions"), ...errorResponses, 404: notFound },
});

export const listMemoriesRoute = createRoute({
  operationId: "listMemories",
  method: "get",
  path: "/v1/agents/{agentId}/memories",
  tags: ["memories"],
  summary: "List memories, newest first",
  description:
    "Segments, explicit memories and episodes (never entities), newest first, paged by an opaque cursor that stays stable while memories are added. Superseded versions only with `include_superseded=true`.",
  request: { params: AgentPathSchema, query: MemoryListQuerySchema },
  responses: { 200: json(MemoryListSchema, "One page"), ...errorResponses },
});

export const updateMemoryRoute = createRoute({
  operationId: "updateMemory",
  method: "patch",
  path: "/v1/agents/{agentId}/memories/{nodeId}",
  tags: ["memories"],
  summary: "Update a memory: the new content supersedes it",
  description:
    "The new content becomes a new node that takes over the old one's links; 更正 (corrects) links it to the old one, which becomes history. Recall, search and listings return the new content only. 409 for an entity or a version already superseded (the current one is named).",
  request: {
    params: MemoryPathSchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: UpdateRequestSchema } } },
  },
  responses: { 200: json(UpdatedSchema, "Updated"), 202: pending, ...writeErrors, 404: notFound, 409: conflict },
});

export const deleteMemoryRoute = createRoute({
  operationId: "deleteMemory",
  method: "delete",
  path: "/v1/agents/{agentId}/memories/{nodeId}",
  tags: ["memories"],
  summary: "Forget a memory now, or purge every trace of it",
  description:
    "Forget: the node goes at once; links pointing at it stay dangling, so a recall passing by shows that the agent once knew something there. `purge=true`: also every link into it, its earlier versions, the message ids only it came from (a re-sent message is remembered again), and the results of the tasks that wrote it (their Idempotency-Keys then answer 409). 409 for an entity or a superseded version (delete the current one).",
  request: { params: MemoryPathSchema, query: DeleteQuerySchema, headers: WriteHeadersSchema },
  responses: { 200: json(ForgottenSchema, "Deleted"), 202: pending, ...writeErrors, 404: notFound, 409: conflict },
});

export function registerMemories(app: OpenAPIHono<AppEnv>): void {
  app.openapi(createMemoryRoute, async (c) => {
    const { content, subject, memory_type, topic, object, attributes, importance, timestamp } = c.req.valid("json");
    const structure =
      subject !== undefined && memory_type !== undefined && topic !== undefined
        ? {
            subject,
            memory_type:
              memory_type in MEMORY_TYPES_EN ? MEMORY_TYPES_EN[memory_type as keyof typeof MEMORY_TYPES_EN] : (memory_type as "event"),
            topic,
            ...(object !== undefined ? { object } : {}),
            ...(attributes !== undefined ? { attributes } : {}),
          }
        : undefined;
    const outcome = await agentOf(c, c.req.valid("param").agentId).submit(
      "createMemory",
      {
        ...(content !== undefined ? { content: content.trim() } : {}),
        ...(structure ? { structure } : {}),
        ...(importance !== undefined ? { importance } : {}),
        ...(timestamp !== undefined ? { timestamp } : {}),
      },
      { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
    );
    whenFailed(outcome, "memorize");
    if (!outcome.result) return c.json(pendingBody(outcome), 202);
    return c.json({ ...outcome.result, task_id: outcome.taskIds[0] ?? "", status: "done" as const }, 201);
  });

  app.openapi(getMemoryRoute, async (c) => {
    const { agentId, nodeId } = c.req.valid("param");
    const { memory } = await agentOf(c, agentId).ask("getMemory", { node_id: nodeId, links: linksPageOf(c.req.valid("query")) });
    if (!memory) throw new ApiError("not_found", `memory ${nodeId} not found`);
    return c.json(memory, 200);
  });

  app.openapi(memoryHistoryRoute, async (c) => {
    const { agentId, nodeId } = c.req.valid("param");
    const query = c.req.valid("query");
    const after = query.cursor === undefined ? 0 : (decodeMemoryCursor(query.cursor) ?? 0);
    const page = await agentOf(c, agentId).ask("getMemoryHistory", { node_id: nodeId, after, limit: query.limit ?? DEFAULT_HISTORY_PAGE });
    if (!page.found) throw new ApiError("not_found", `memory ${nodeId} not found`);
    return c.json({ node_id: nodeId, history: page.history, total: page.total, next_cursor: page.next_cursor }, 200);
  });

  app.openapi(listMemoriesRoute, async (c) => {
    const query = c.req.valid("query");
    const before = query.cursor === undefined ? undefined : decodeMemoryCursor(query.cursor);
    const page = await agentOf(c, c.req.valid("param").agentId).ask("listMemories", {
      kinds: kindsOf(query.kind),
      ...(before !== undefined ? { before } : {}),
      limit: query.limit ?? DEFAULT_MEMORY_PAGE,
      include_superseded: query.include_superseded === "true",
    });
    return c.json({ items: page.items, next_cursor: page.next_before === null ? null : encodeMemoryCursor(page.next_before) }, 200);
  });

  app.openapi(updateMemoryRoute, async (c) => {
    const { agentId, nodeId } = c.req.valid("param");
    const outcome = await agentOf(c, agentId).submit(
      "updateMemory",
      { node_id: nodeId, content: c.req.valid("json").content.trim() },
      { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
    );
    whenFailed(outcome, "update");
    const result = outcome.result;
    if (!result) return c.json(pendingBody(outcome), 202);
    switch (result.outcome) {
      case "updated":
        return c.json({ node_id: result.node_id, supersedes: result.supersedes, links_moved: result.links_moved }, 200);
      case "not_found":
        throw new ApiError("not_found", `memory ${nodeId} not found`);
      case "not_a_memory":
        throw new ApiError("conflict", `node ${nodeId} is an ${result.kind}, not a memory: merge entities instead`);
      case "superseded":
        throw new ApiError("conflict", `memory ${nodeId} was superseded by ${result.superseded_by}: update the current version`, {
          details: {
            superseded_by: result.superseded_by,
          },
        });
    }
  });

  app.openapi(deleteMemoryRoute, async (c) => {
    const { agentId, nodeId } = c.req.valid("param");
    const outcome = await agentOf(c, agentId).submit(
      "deleteMemory",
      { node_id: nodeId, purge: c.req.valid("query").purge === "true" },
      { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
    );
    whenFailed(outcome, "forget");
    const result = outcome.result;
    if (!result) return c.json(pendingBody(outcome), 202);
    switch (result.outcome) {
      case "forgotten": {
        const { outcome: _done, ...rest } = result;
        return c.json({ deleted: true as const, ...rest }, 200);
      }
      case "not_found":
        throw new ApiError("not_found", `memory ${nodeId} not found`);
      case "not_a_memory":
        throw new ApiError("conflict", `node ${nodeId} is an ${result.kind}, not a memory`);
      case "superseded":
        throw new ApiError(
          "conflict",
          `memory ${nodeId} was superseded by ${result.superseded_by}: its text lives on there; delete the current version (purge=true takes every version)`,
          { details: { superseded_by: result.superseded_by } },
        );
    }
  });
}
