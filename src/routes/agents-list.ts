/** `GET /v1/agents`: the agents of the caller's tenant, in agent id order, paged by an opaque cursor. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentListQuerySchema, AgentListSchema, decodeAgentCursor, encodeAgentCursor, type AgentList } from "../api/agents";
import { errorResponses } from "../api/common";
import type { AppEnv } from "../http/app-env";
import { listAgents } from "../service/service";

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

export function registerAgentList(app: OpenAPIHono<AppEnv>): void {
  app.openapi(listAgentsRoute, async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const after = cursor === undefined ? undefined : decodeAgentCursor(cursor);
    const page = await listAgents(c.env, c.get("tenantId"), after, limit);
    const last = page.agents.at(-1);
    const body: AgentList = {
      agents: page.agents.map((a) => ({ agent_id: a.agentId, created_at: a.createdAt, last_active_at: a.lastActiveAt })),
      next_cursor: page.more && last ? encodeAgentCursor(last.agentId) : null,
    };
    return c.json(body, 200);
  });
}
