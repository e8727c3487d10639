/** listSessions (docs/design.md, "Sessions as a resource"): the agent's sessions, by id. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { AgentPathSchema, errorResponses, jsonAnswer } from "../../surfaces/common-schemas";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { pageSizeQuery } from "../../surfaces/paging";
import { pageArgs, READ } from "../../surfaces/tool-args";
import { decodeSessionCursor, encodeSessionCursor } from "../shared/cursor";
import { ListSessionsResultSchema, MAX_SESSION_PAGE, SessionViewSchema } from "./task";

const DEFAULT_SESSION_PAGE = 50;

const SessionListQuerySchema = z
  .object({
    cursor: z
      .string()
      .refine((c) => decodeSessionCursor(c) !== undefined, "cursor: not a cursor returned by this endpoint")
      .optional()
      .openapi({ description: "`next_cursor` of the previous page; omit for the first page." }),
    limit: pageSizeQuery("limit", MAX_SESSION_PAGE, DEFAULT_SESSION_PAGE),
  })
  .strict();

const SessionListSchema = ListSessionsResultSchema.omit({ next_after: true })
  .extend({ sessions: z.array(SessionViewSchema.openapi("Session")), next_cursor: z.string().nullable() })
  .openapi("SessionList");

const route = createRoute({
  operationId: "listSessions",
  method: "get",
  path: "/v1/agents/{agentId}/sessions",
  tags: ["sessions"],
  summary: "List the agent's sessions",
  description:
    "The sessions (conversations) memories were remembered into, by session id: the times of the first and last message, the messages remembered into it and the memories it holds now. Paged by an opaque cursor.",
  request: { params: AgentPathSchema, query: SessionListQuerySchema },
  responses: { 200: jsonAnswer(SessionListSchema, "One page"), ...errorResponses },
});

export const listSessions: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const { sessions } = await agent.listSessions({ limit: 20 });
for (const s of sessions) console.log(s.session_id, s.messages, s.memories);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const { sessions } = unwrap(await env.MEMORY.listSessions("assistant-1", { limit: 20 }));`,
    },
    queryArgs: { ...pageArgs("Sessions") },
    tool: {
      name: "list_sessions",
      title: "List sessions",
      description:
        "The conversations (sessions) the agent's memories came from, with when each began and ended and how many memories it holds: to find a session_id to recall within or to forget.",
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const query = c.req.valid("query");
      const after = query.cursor === undefined ? undefined : decodeSessionCursor(query.cursor);
      const page = await agentOf(c, c.req.valid("param").agentId).ask("listSessions", {
        ...(after !== undefined ? { after } : {}),
        limit: query.limit ?? DEFAULT_SESSION_PAGE,
      });
      return c.json({ sessions: page.sessions, next_cursor: page.next_after === null ? null : encodeSessionCursor(page.next_after) }, 200);
    }),
};
