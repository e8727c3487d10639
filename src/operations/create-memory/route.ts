/**
 * Memories (docs/design.md, "Memory operations (as built)"): write an explicit memory, read one (with its history), list them,
 * update one by supersession, delete or purge one. Requests are strict (unknown fields refused)
 * and text is well-formed Unicode (TextSchema); results are the agent's own schemas under OpenAPI names.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../http/agent-of";
import { subApp, type Area } from "../../surfaces/endpoint";
import { AgentIdSchema, AgentPathSchema, ErrorSchema, errorResponses, errorsOf, NodeIdSchema, TextSchema } from "../../http/common-schemas";
import { WriteHeadersSchema } from "../../http/headers";
import { TimestampSchema } from "../../http/messages";
import { defineOperation } from "../../surfaces/operation";
import { OPERATION_WAIT_MS, pendingBody, PendingSchema, whenFailed } from "../../http/pending";
import { LANGUAGES, linksPageArgs, nodeIdArgument, pageArgs, READ, WRITE } from "../../surfaces/tool-args";
import { linksPageOf, LinksPageQuerySchema, pageSizeQuery } from "../../http/paging";
import { MAX_MESSAGE_CODE_POINTS } from "../../config/limits";
import { ApiError, TOO_LARGE } from "../../http/errors";
import { MemorizeResultSchema } from "./task";
import { ForgetResultSchema } from "../delete-memory/task";
import { decodeIdCursor, encodeIdCursor } from "../shared/cursor";
import {
  DEFAULT_HISTORY_PAGE,
  HistoryEntrySchema,
  MAX_HISTORY_PAGE,
  MemoryListResultSchema,
  MemoryViewSchema,
} from "../shared/memory-view";
import { codePointLength } from "../../text/code-points";
import { MEMORY_KINDS } from "../../vocabulary/node-kinds";

/** A memory's text: non-blank, at most as long as one message. */
const ContentSchema = TextSchema.superRefine((s, ctx) => {
  if (s.trim().length === 0) ctx.addIssue({ code: "custom", message: "content must not be empty" });
  if (codePointLength(s) > MAX_MESSAGE_CODE_POINTS)
    ctx.addIssue({ code: "custom", message: `content exceeds ${MAX_MESSAGE_CODE_POINTS} characters`, params: { [TOO_LARGE]: true } });
});

const Short = (max: number) => TextSchema.trim().min(1).max(max);

const MEMORY_TYPE_NAMES = ["event", "fact", "relation", "opinion", "事件", "事实", "关系", "观点"] as const;

const MemoryRequestSchema = z
  .object({
    content: ContentSchema.optional().openapi({
      description: "The memory as text (or give the structured form instead).",
      example: "I had ramen with Bob yesterday.",
    }),
    subject: Short(200).optional().openapi({ description: "Structured form: who the memory is about.", example: "小明" }),
    memory_type: z.enum(MEMORY_TYPE_NAMES).optional().openapi({
      description:
        "event (事件: an action at a time), fact (事实: a stable state), relation (关系: between people), opinion (观点: a view).",
    }),
    topic: Short(500).optional().openapi({ description: "What it is about: the action or state.", example: "喜好" }),
    object: Short(500).optional().openapi({ description: "What the action or state concerns.", example: "打篮球" }),
    attributes: z
      .record(Short(100), Short(500))
      .refine((a) => Object.keys(a).length <= 20, "at most 20 attributes")
      .optional()
      .openapi({
        description:
          "More facts: time (时间, relative times such as 昨天 or 'last Friday' are resolved), place (地点), reason (原因), manner (方式), or any other.",
        example: { 时间: "昨天", 地点: "体育馆" },
      }),
    importance: z.number().min(0).max(1).optional().openapi({
      description: "Strength of the links to its subject and object entities (default 0.5): 0.3 daily trivia, 0.8 important, 1 key.",
    }),
    timestamp: TimestampSchema.optional().openapi({
      description: "When it was said (default: now): relative times are resolved against it.",
    }),
  })
  .strict()
  .superRefine((r, ctx) => {
    const structured = r.subject !== undefined || r.memory_type !== undefined || r.topic !== undefined;
    if (r.content !== undefined && (structured || r.object !== undefined || r.attributes !== undefined)) {
      ctx.addIssue({ code: "custom", message: "give either content or the structured form (subject, memory_type, topic), not both" });
    } else if (r.content === undefined) {
      for (const key of ["subject", "memory_type", "topic"] as const)
        if (r[key] === undefined) ctx.addIssue({ code: "custom", path: [key], message: `${key} is required without content` });
    }
  })
  .openapi("MemoryRequest");

const MemoryCreatedSchema = MemorizeResultSchema.extend({ task_id: z.string(), status: z.literal("done") }).openapi("MemoryCreated");

const MemoryPathSchema = z.object({ agentId: AgentIdSchema, nodeId: NodeIdSchema });

const MemorySchema = MemoryViewSchema.openapi("Memory");

const HistorySchema = z
  .object({
    node_id: z.number().int(),
    history: z.array(HistoryEntrySchema),
    /** Versions in all. */
    total: z.number().int(),
    next_cursor: z.string().nullable(),
  })
  .openapi("MemoryHistory");

/** The `cursor` of the listing and of a history: a `next_cursor` this API gave (src/operations/views/cursor.ts). */
const PageCursorQuery = z
  .string()
  .refine((c) => decodeIdCursor(c) !== undefined, "not a cursor returned by this endpoint")
  .optional()
  .openapi({ description: "`next_cursor` of the previous page; omit for the first page." });

const HistoryQuerySchema = z
  .object({
    cursor: PageCursorQuery,
    limit: pageSizeQuery("limit", MAX_HISTORY_PAGE, DEFAULT_HISTORY_PAGE),
  })
  .strict();

/** The listing cursor is opaque to clients (src/operations/views/cursor.ts): the last id of the previous page. */
const encodeMemoryCursor = encodeIdCursor;
const decodeMemoryCursor = decodeIdCursor;

const DEFAULT_MEMORY_PAGE = 50;
const MAX_MEMORY_PAGE = 200;

const MemoryListQuerySchema = z
  .object({
    kind: z
      .string()
      .regex(/^(segment|memory|episode)(,(segment|memory|episode))*$/, "kind: segment, memory or episode, comma-separated")
      .optional()
      .openapi({ description: "Kinds to list, comma-separated (default: all three; entities are never listed).", example: "memory" }),
    cursor: PageCursorQuery,
    limit: z
      .string()
      .regex(/^[1-9][0-9]{0,2}$/, `limit: memories per page, 1–${MAX_MEMORY_PAGE}`)
      .transform(Number)
      .refine((n) => n <= MAX_MEMORY_PAGE, `limit: at most ${MAX_MEMORY_PAGE}`)
      .optional()
      .openapi({ description: `Memories per page (1–${MAX_MEMORY_PAGE}, default ${DEFAULT_MEMORY_PAGE}).`, type: "string" }),
    include_superseded: z
      .enum(["true", "false"])
      .optional()
      .openapi({ description: "Also list versions that a newer one corrected (default false)." }),
  })
  .strict();

function kindsOf(kind: string | undefined): (typeof MEMORY_KINDS)[number][] {
  if (kind === undefined) return [...MEMORY_KINDS];
  return [...new Set(kind.split(","))].filter((k): k is (typeof MEMORY_KINDS)[number] => (MEMORY_KINDS as readonly string[]).includes(k));
}

const MemoryListSchema = MemoryListResultSchema.omit({ next_before: true })
  .extend({ next_cursor: z.string().nullable() })
  .openapi("MemoryList");

const UpdateRequestSchema = z.object({ content: ContentSchema }).strict().openapi("MemoryUpdate");

const UpdatedSchema = z
  .object({ node_id: z.number().int(), supersedes: z.number().int(), links_moved: z.number().int() })
  .openapi("MemoryUpdated", { description: "The new version's id; the old one is history now." });

const DeleteQuerySchema = z
  .object({
    purge: z
      .enum(["true", "false"])
      .optional()
      .openapi({ description: "Also remove every trace: dangling links, earlier versions, message ids (default false)." }),
  })
  .strict();

const ForgottenResult = ForgetResultSchema.options[0];
const ForgottenSchema = ForgottenResult.omit({ outcome: true })
  .extend({ deleted: z.literal(true) })
  .openapi("MemoryDeleted");

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

// Memory operations (docs/design.md, "Memory operations (as built)"), the tools a model writes its memory with.
const createMemory = defineOperation(createMemoryRoute, {
  tool: {
    name: "create_memory",
    title: "Create a memory",
    description: `Store one explicit memory now, as a sentence (\`content\`) or structured (subject, memory_type: event/fact/relation/opinion, topic, object?, attributes? such as 时间 or 地点; relative times like 昨天 are resolved). Use it for a fact the user states that should outlive the conversation. A memory that contradicts an earlier one is reported in \`conflicts\` (and may supersede it). Answers the new node_id. ${LANGUAGES}`,
    annotations: WRITE,
  },
});

const updateMemory = defineOperation(updateMemoryRoute, {
  pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, context and create_memory answers."),
  tool: {
    name: "update_memory",
    title: "Correct a memory",
    description: `Correct a memory: the new content becomes a new version that takes over its links; the old one becomes history that recall and search no longer return. Use it when the user corrects something the agent remembered. ${LANGUAGES}`,
    annotations: WRITE,
  },
});

const deleteMemory = defineOperation(deleteMemoryRoute, {
  pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, context and create_memory answers."),
  queryArgs: { purge: z.boolean().optional().describe("true: remove every trace too (links into it, earlier versions).") },
  tool: {
    name: "delete_memory",
    title: "Forget a memory",
    description:
      "Forget one memory now (links into it stay as a trace that something was known there); with purge also every trace. Only when the user asks to forget that specific thing.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

const getMemory = defineOperation(getMemoryRoute, {
  pathArgs: nodeIdArgument("The memory's id (node_id in recall, search and create_memory answers)."),
  queryArgs: linksPageArgs,
  tool: {
    name: "get_memory",
    title: "Read a memory with its history",
    description: `One memory (or entity) with its links, provenance, meta, aliases, the memories it contradicts and its versions: what get_memory_node gives plus what the memory operations recorded. ${LANGUAGES}`,
    annotations: READ,
  },
});

const getMemoryHistory = defineOperation(memoryHistoryRoute, {
  pathArgs: nodeIdArgument("The id of any version of the memory."),
  queryArgs: pageArgs("Versions"),
  tool: {
    name: "get_memory_history",
    title: "Versions of a memory",
    description: "The versions of a corrected memory, oldest first: what it said before each update_memory.",
    annotations: READ,
  },
});

const listMemories = defineOperation(listMemoriesRoute, {
  queryArgs: {
    kind: z.string().optional().describe("Kinds to list, comma-separated: segment, memory (explicit), episode (default all three)."),
    ...pageArgs("Memories"),
    include_superseded: z.boolean().optional().describe("true: also versions a newer one corrected."),
  },
  tool: {
    name: "list_memories",
    title: "List memories",
    description: `Page through the agent's memories, newest first (never entities). To find something, search_memories or recall is better; this is for reviewing what is stored. ${LANGUAGES}`,
    annotations: READ,
  },
});

export const MEMORIES: Area = {
  operations: [createMemory, updateMemory, deleteMemory, getMemory, getMemoryHistory, listMemories],
  routes: () =>
    subApp()
      .openapi(createMemoryRoute, async (c) => {
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
      })
      .openapi(getMemoryRoute, async (c) => {
        const { agentId, nodeId } = c.req.valid("param");
        const { memory } = await agentOf(c, agentId).ask("getMemory", { node_id: nodeId, links: linksPageOf(c.req.valid("query")) });
        if (!memory) throw new ApiError("not_found", `memory ${nodeId} not found`);
        return c.json(memory, 200);
      })
      .openapi(memoryHistoryRoute, async (c) => {
        const { agentId, nodeId } = c.req.valid("param");
        const query = c.req.valid("query");
        const after = query.cursor === undefined ? 0 : (decodeMemoryCursor(query.cursor) ?? 0);
        const page = await agentOf(c, agentId).ask("getMemoryHistory", {
          node_id: nodeId,
          after,
          limit: query.limit ?? DEFAULT_HISTORY_PAGE,
        });
        if (!page.found) throw new ApiError("not_found", `memory ${nodeId} not found`);
        return c.json({ node_id: nodeId, history: page.history, total: page.total, next_cursor: page.next_cursor }, 200);
      })
      .openapi(listMemoriesRoute, async (c) => {
        const query = c.req.valid("query");
        const before = query.cursor === undefined ? undefined : decodeMemoryCursor(query.cursor);
        const page = await agentOf(c, c.req.valid("param").agentId).ask("listMemories", {
          kinds: kindsOf(query.kind),
          ...(before !== undefined ? { before } : {}),
          limit: query.limit ?? DEFAULT_MEMORY_PAGE,
          include_superseded: query.include_superseded === "true",
        });
        return c.json({ items: page.items, next_cursor: page.next_before === null ? null : encodeMemoryCursor(page.next_before) }, 200);
      })
      .openapi(updateMemoryRoute, async (c) => {
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
      })
      .openapi(deleteMemoryRoute, async (c) => {
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
      }),
};
