/**
 * createMemory (docs/design.md, "Memory operations (as built)"): write an explicit memory, as text
 * or in the structured form. The request is strict (unknown fields refused) and its text is
 * well-formed Unicode; the answer is the task's result under its OpenAPI name.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { AgentPathSchema, errorsOf, jsonAnswer, TextSchema } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { MemoryContentSchema } from "../../surfaces/memory-routes";
import { TimestampSchema } from "../../surfaces/messages";
import { WRITE_SCOPE_FIELDS, writeScopeFields } from "../../surfaces/memory-filter";
import { OPERATION_WAIT_MS, PENDING_ANSWER, pendingBody, whenFailed } from "../../surfaces/pending";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { LANGUAGES, WRITE } from "../../surfaces/tool-args";
import { MEMORY_TYPE_NAMES, memoryTypeOf } from "../../vocabulary/memory-types";
import { CreateMemoryResultSchema } from "./task";

const Short = (max: number) => TextSchema.trim().min(1).max(max);

const MemoryRequestSchema = z
  .object({
    content: MemoryContentSchema.optional().openapi({
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
    ...WRITE_SCOPE_FIELDS,
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

const MemoryCreatedSchema = CreateMemoryResultSchema.extend({ task_id: z.string(), status: z.literal("done") }).openapi("MemoryCreated");

const route = createRoute({
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
  responses: { 201: jsonAnswer(MemoryCreatedSchema, "Written"), 202: PENDING_ANSWER, ...errorsOf({ body: true, write: true }) },
});

export const createMemory: Endpoint = {
  // Memory operations (docs/design.md, "Memory operations (as built)"), the tools a model writes its memory with.
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `const created = await agent.createMemory({ subject: "Ines", memory_type: "fact", topic: "lives in", object: "Porto" });
if (created.status === "done") console.log(created.node_id, created.entities);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const created = unwrap(await env.MEMORY.createMemory("assistant-1", { content: "Ines prefers tea." }, { idempotencyKey: "req-2" }));`,
    },
    tool: {
      name: "create_memory",
      title: "Create a memory",
      description: `Store one explicit memory now, as a sentence (\`content\`) or structured (subject, memory_type: event/fact/relation/opinion, topic, object?, attributes? such as 时间 or 地点; relative times like 昨天 are resolved). Use it for a fact the user states that should outlive the conversation. A memory that contradicts an earlier one is reported in \`conflicts\` (and may supersede it). Answers the new node_id. ${LANGUAGES}`,
      annotations: WRITE,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const request = c.req.valid("json");
      const { content, subject, memory_type, topic, object, attributes, importance, timestamp } = request;
      const structure =
        subject !== undefined && memory_type !== undefined && topic !== undefined
          ? {
              subject,
              memory_type: memoryTypeOf(memory_type),
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
          ...writeScopeFields(request),
        },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "createMemory");
      if (!outcome.result) return c.json(pendingBody(outcome), 202);
      return c.json({ ...outcome.result, task_id: outcome.taskIds[0] ?? "", status: "done" as const }, 201);
    }),
};
