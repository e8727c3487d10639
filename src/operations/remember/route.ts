/** remember (docs/design.md, "Memory operations"): chat messages queued for the memory network. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { MessageSchema } from "../../surfaces/messages";
import { WRITE_SCOPE_FIELDS, writeScopeFields } from "../../surfaces/memory-filter";
import { defineOperation } from "../../surfaces/operation";
import { LANGUAGES } from "../../surfaces/tool-args";
import { MAX_MESSAGES_PER_REMEMBER, MAX_REMEMBER_CODE_POINTS } from "../../config/limits";
import { TOO_LARGE } from "../../http/errors";
import { codePointLength } from "../../text/code-points";

const RememberRequestSchema = z
  .object({
    messages: z
      .array(MessageSchema)
      .min(1, "messages must not be empty")
      .superRefine((messages, ctx) => {
        if (messages.length > MAX_MESSAGES_PER_REMEMBER)
          ctx.addIssue({
            code: "custom",
            message: `at most ${MAX_MESSAGES_PER_REMEMBER} messages per call`,
            params: { [TOO_LARGE]: true },
          });
        // An id names one message. The same message twice is harmless (the agent stores it once),
        // but two different messages with one id would lose the second silently: refused, naming it.
        const firstWithId = new Map<string, { index: number; print: string }>();
        messages.forEach((m, i) => {
          if (m.id === undefined) return;
          const print = JSON.stringify([m.role, m.content, m.name ?? null, m.timestamp ?? null]);
          const first = firstWithId.get(m.id);
          if (first === undefined) firstWithId.set(m.id, { index: i, print });
          else if (first.print !== print) {
            const message = `id ${JSON.stringify(m.id)} already names messages.${first.index}, a different message`;
            ctx.addIssue({ code: "custom", path: [i, "id"], message });
          }
        });
        const total = messages.reduce((sum, m) => sum + codePointLength(m.content), 0);
        if (total > MAX_REMEMBER_CODE_POINTS)
          ctx.addIssue({
            code: "custom",
            message: `messages exceed ${MAX_REMEMBER_CODE_POINTS} characters in total`,
            params: { [TOO_LARGE]: true },
          });
      }),
    ...WRITE_SCOPE_FIELDS,
  })
  .strict()
  .openapi("RememberRequest");

const RememberAcceptedSchema = z
  .object({
    task_id: z.string(),
    status: z.literal("queued"),
    /** Writes ahead of this one in the agent's queue. */
    queued_ahead: z.number().int(),
  })
  .openapi("RememberAccepted");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/remember",
  operationId: "remember",
  tags: ["memory"],
  summary: "Remember chat messages",
  description:
    "Validates the messages, appends one task to the agent's durable queue and answers at once. The queue then segments the text, extracts phrases, keywords and entities, updates the focus and links the new memories into the network, then runs one compression cycle. A message whose `id` the agent already holds is not stored again.",
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: RememberRequestSchema } } },
  },
  responses: {
    202: { description: "Accepted and durably queued", content: { "application/json": { schema: RememberAcceptedSchema } } },
    ...errorsOf({ body: true, write: true }),
  },
});

export const remember: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `const { task_id } = await agent.remember({
  messages: [
    { role: "user", name: "Ines", content: "I moved to Porto in May.", id: "m1" },
    { role: "assistant", content: "Noted: you live in Porto now.", id: "m2" },
  ],
});
await agent.waitForTask(task_id);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const { task_id } = unwrap(await env.MEMORY.remember("assistant-1", { messages: [{ role: "user", content: "I moved to Porto in May." }] }, { idempotencyKey: "req-1" }));`,
    },
    tool: {
      name: "remember",
      title: "Remember messages",
      description: `Store conversation messages in the agent's long-term memory: what the user said that matters beyond this conversation (facts, decisions, preferences, events). The memory is built in the background; the answer is a task id (get_task waits for it), and recall, search and get_context called afterwards already see it. ${LANGUAGES} Give every message a stable \`id\`: a message whose id the memory holds is not stored again, so repeating a call is harmless. Pass the conversation's \`session_id\` to be able to recall within it or forget it later.`,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const request = c.req.valid("json");
      const outcome = await agentOf(c, c.req.valid("param").agentId).submit(
        "remember",
        { messages: request.messages, ...writeScopeFields(request) },
        writeOptions(c.req.valid("header")),
      );
      return c.json({ task_id: outcome.taskIds[0] ?? "", status: "queued" as const, queued_ahead: outcome.queuedAhead }, 202);
    }),
};
