/** deleteSession (docs/design.md, "Sessions as a resource"): forget every memory of a session, or purge them. */
import { audited } from "../../surfaces/audit";
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { AgentIdSchema, ErrorSchema, errorsOf, jsonAnswer } from "../../surfaces/common-schemas";
import { ApiError } from "../../http/errors";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { OPERATION_WAIT_MS, PENDING_ANSWER, pendingBody, whenFailed } from "../../surfaces/pending";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { SessionIdSchema } from "../../vocabulary/memory-filter";
import { DeleteSessionResultSchema } from "./task";

const SessionPathSchema = z.object({
  agentId: AgentIdSchema,
  sessionId: SessionIdSchema.openapi({ param: { name: "sessionId", in: "path" }, example: "chat-2026-11-20" }),
});

const DeleteQuerySchema = z
  .object({
    purge: z
      .enum(["true", "false"])
      .optional()
      .openapi({ description: "Also remove every trace of its memories, as a memory purge does (default false)." }),
  })
  .strict();

const SessionDeletedSchema = DeleteSessionResultSchema.options[0]
  .omit({ outcome: true })
  .extend({ deleted: z.literal(true) })
  .openapi("SessionDeleted");

const route = createRoute({
  operationId: "deleteSession",
  method: "delete",
  path: "/v1/agents/{agentId}/sessions/{sessionId}",
  tags: ["sessions"],
  summary: "Forget a session, or purge every trace of it",
  description:
    "Forgets every memory of the session (segments, explicit memories, episodes) as DELETE memories/{nodeId} does: links into them stay as traces, the entities stay, the other sessions are untouched (a version one of its memories had superseded in another session is current again). `purge=true`: the memory purge of each, memories forgotten before included: no surface returns a byte of their text afterwards, and the Idempotency-Keys of the writes that made them answer 409. A remember into the session accepted before this request is deleted with it; one accepted after it starts the session again. 404 when the agent has nothing of the session.",
  request: { params: SessionPathSchema, query: DeleteQuerySchema, headers: WriteHeadersSchema },
  responses: {
    200: jsonAnswer(SessionDeletedSchema, "Deleted"),
    202: PENDING_ANSWER,
    ...errorsOf({ body: true, write: true }),
    404: jsonAnswer(ErrorSchema, "No such session in this agent"),
  },
});

export const deleteSession: Endpoint = {
  operation: defineOperation(route, {
    // Forgetting a session is a write; purging it, like purging a memory, is an admin's.
    scope: (query) => (query("purge") === "true" ? "admin" : "write"),
    sdk: {
      example: `await agent.deleteSession({ session_id: "chat-2026-11-20", purge: true });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.deleteSession("assistant-1", { session_id: "chat-2026-11-20", purge: true }));`,
    },
    queryArgs: {
      purge: z.boolean().optional().describe("true: remove every trace of its memories too, as a purge does."),
    },
    tool: {
      name: "delete_session",
      title: "Forget a session",
      description:
        "Forget every memory of one conversation (session_id), keeping the others; with purge also every trace. Only when the user asks to forget that conversation.",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, sessionId } = c.req.valid("param");
      const purge = c.req.valid("query").purge === "true";
      const outcome = await agentOf(c, agentId).submit(
        "deleteSession",
        { session_id: sessionId, purge },
        { waitMs: OPERATION_WAIT_MS, ...writeOptions(c.req.valid("header")) },
      );
      whenFailed(outcome, "deleteSession");
      const result = outcome.result;
      // A purge is audited once accepted (done, or still under way), as a memory's is.
      if (purge && result?.outcome !== "not_found") {
        await audited(c, "session.purged", agentId, sessionId, { task_id: outcome.taskIds[0] ?? null });
      }
      if (!result) return c.json(pendingBody(outcome), 202);
      if (result.outcome === "not_found") throw new ApiError("not_found", `session ${sessionId} not found`);
      const { outcome: _done, ...rest } = result;
      return c.json({ deleted: true as const, ...rest }, 200);
    }),
};
