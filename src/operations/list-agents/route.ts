/** The agents of a tenant: listing them (`GET /v1/agents`, paged by an opaque cursor) and deleting one. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../http/agent-of";
import { subApp, type Area } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorResponses, errorsOf } from "../../http/common-schemas";
import { WriteHeadersSchema } from "../../http/headers";
import { defineOperation } from "../../surfaces/operation";
import { pageArgs } from "../../surfaces/tool-args";
import { AGENT_ID_PATTERN } from "../../config/limits";
import { listAgents } from "../../service/service";

/** How long DELETE waits for the deletion before answering 202 with its task. */
const DELETE_WAIT_MS = 25_000;

const DEFAULT_AGENT_PAGE = 50;
const MAX_AGENT_PAGE = 200;

/**
 * The cursor is opaque to clients: the base64url text of the last agent id of the previous page.
 * Agent ids are ASCII (AGENT_ID_PATTERN), so the encoding is plain base64url of those bytes.
 */
export function encodeAgentCursor(agentId: string): string {
  return btoa(agentId).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The agent id inside a cursor, or undefined when the text is not a cursor this API issued. */
export function decodeAgentCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(cursor)) return undefined;
  let text: string;
  try {
    text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return undefined;
  }
  return AGENT_ID_PATTERN.test(text) ? text : undefined;
}

const AgentListQuerySchema = z
  .object({
    cursor: z
      .string()
      .refine((c) => decodeAgentCursor(c) !== undefined, "not a cursor returned by this endpoint")
      .optional()
      .openapi({ description: "`next_cursor` of the previous page; omit for the first page.", example: "c3VwcG9ydC1ib3QtNDI" }),
    limit: z
      .string()
      .regex(/^[1-9][0-9]{0,2}$/, `limit: agents per page, 1–${MAX_AGENT_PAGE}`)
      .transform(Number)
      .refine((n) => n <= MAX_AGENT_PAGE, `limit: at most ${MAX_AGENT_PAGE}`)
      .optional()
      .transform((n) => n ?? DEFAULT_AGENT_PAGE)
      .openapi({ description: `Agents per page (1–${MAX_AGENT_PAGE}).`, example: String(DEFAULT_AGENT_PAGE), type: "string" }),
  })
  .strict();

const AgentSummarySchema = z
  .object({
    agent_id: z.string().openapi({ example: "support-bot-42" }),
    /** When the agent was first written to (ms since epoch). */
    created_at: z.number().int(),
    /** Its latest write or scheduled-work update (ms since epoch). */
    last_active_at: z.number().int(),
  })
  .openapi("AgentSummary");

const AgentListSchema = z
  .object({
    agents: z.array(AgentSummarySchema),
    /** Pass as `cursor` to get the next page; null on the last page. */
    next_cursor: z.string().nullable(),
  })
  .openapi("AgentList");

type AgentList = z.infer<typeof AgentListSchema>;

export const deleteAgentRoute = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}",
  operationId: "deleteAgent",
  tags: ["agents"],
  summary: "Delete the agent: every memory, link, index entry, vector and queued task",
  description: "Runs after the tasks already queued. Answers 200 when done, or 202 with the task id if it takes longer.",
  request: { params: AgentPathSchema, query: EmptyQuerySchema, headers: WriteHeadersSchema },
  responses: {
    200: { description: "Deleted", content: { "application/json": { schema: z.object({ deleted: z.literal(true) }) } } },
    202: {
      description: "Deletion under way",
      content: { "application/json": { schema: z.object({ deleted: z.literal(false), task_id: z.string() }) } },
    },
    ...errorsOf({ write: true }),
  },
});

export const listAgentsRoute = createRoute({
  method: "get",
  path: "/v1/agents",
  operationId: "listAgents",
  tags: ["agents"],
  summary: "List the agents of the caller's tenant",
  description:
    "Agents appear once they have been written to (remember, config, compress) and disappear when deleted. Ordered by agent id; `next_cursor` continues after the last agent of the page, so paging stays stable while agents are added or removed. Only the API key's own tenant is listed.",
  request: { query: AgentListQuerySchema },
  responses: {
    200: { description: "One page of agents", content: { "application/json": { schema: AgentListSchema } } },
    ...errorResponses,
  },
});

const deleteAgent = defineOperation(deleteAgentRoute, {
  tool: {
    name: "delete_agent",
    title: "Erase the whole memory",
    description:
      "Erase this agent's entire memory irreversibly: every memory, link, index entry and queued task. Only when the user explicitly asks to delete everything the agent remembers; never to tidy up (compress_memories forgets gradually).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

const listAgentsOperation = defineOperation(listAgentsRoute, {
  queryArgs: pageArgs("Agents"),
  tool: { reason: "spans the whole tenant, while tools and MCP act for the one agent of their path" },
});

export const AGENTS: Area = {
  operations: [deleteAgent, listAgentsOperation],
  routes: () =>
    subApp()
      .openapi(deleteAgentRoute, async (c) => {
        const outcome = await agentOf(c, c.req.valid("param").agentId).submit("deleteAgent", null, {
          waitMs: DELETE_WAIT_MS,
          ...writeOptions(c.req.valid("header")),
        });
        if (outcome.status === "failed") throw new Error(`agent deletion failed: ${outcome.error ?? "unknown error"}`);
        if (outcome.status === "done") return c.json({ deleted: true as const }, 200);
        return c.json({ deleted: false as const, task_id: outcome.taskIds[0] ?? "" }, 202);
      })
      .openapi(listAgentsRoute, async (c) => {
        const { cursor, limit } = c.req.valid("query");
        const after = cursor === undefined ? undefined : decodeAgentCursor(cursor);
        const page = await listAgents(c.env, c.get("tenantId"), after, limit);
        const last = page.agents.at(-1);
        const body: AgentList = {
          agents: page.agents.map((a) => ({ agent_id: a.agentId, created_at: a.createdAt, last_active_at: a.lastActiveAt })),
          next_cursor: page.more && last ? encodeAgentCursor(last.agentId) : null,
        };
        return c.json(body, 200);
      }),
};
