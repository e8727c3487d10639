/** listAgents: the agents of the caller's tenant, paged by an opaque cursor. */
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { errorResponses } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { pageArgs } from "../../surfaces/tool-args";
import { AGENT_ID_PATTERN } from "../../config/limits";
import { tenantAgents } from "../../service/tenant-agents";
import { createRoute, z } from "@hono/zod-openapi";

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

const route = createRoute({
  method: "get",
  path: "/v1/agents",
  operationId: "listAgents",
  tags: ["agents"],
  summary: "List the agents of the caller's tenant",
  description:
    "Agents appear once they have been written to (remember, config, compress) and disappear when deleted. Ordered by agent id; `next_cursor` continues after the last agent of the page, so paging stays stable while agents are added or removed. Only the API key's own tenant is listed, and of it only the agents within the key's agent-id prefix.",
  request: { query: AgentListQuerySchema },
  responses: {
    200: { description: "One page of agents", content: { "application/json": { schema: AgentListSchema } } },
    ...errorResponses,
  },
});

export const listAgents: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const { agents, next_cursor } = await memory.listAgents({ limit: 50 });
console.log(agents.map((a) => a.agent_id), next_cursor);`,
    },
    queryArgs: pageArgs("Agents"),
    tool: { reason: "spans the whole tenant, while tools and MCP act for the one agent of their path" },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { cursor, limit } = c.req.valid("query");
      const after = cursor === undefined ? undefined : decodeAgentCursor(cursor);
      const { tenantId, agentPrefix } = c.get("principal");
      const page = await tenantAgents(c.env, tenantId, after, limit, agentPrefix);
      const last = page.agents.at(-1);
      const body: AgentList = {
        agents: page.agents.map((a) => ({ agent_id: a.agentId, created_at: a.createdAt, last_active_at: a.lastActiveAt })),
        next_cursor: page.more && last ? encodeAgentCursor(last.agentId) : null,
      };
      return c.json(body, 200);
    }),
};
