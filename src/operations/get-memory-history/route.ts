/** getMemoryHistory (docs/design.md, "Memory operations (as built)"): the versions of a memory, oldest first, a page at a time. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { errorResponses, jsonAnswer } from "../../surfaces/common-schemas";
import { ApiError } from "../../http/errors";
import { MEMORY_NOT_FOUND, MemoryPathSchema, PageCursorQuery } from "../../surfaces/memory-routes";
import { pageSizeQuery } from "../../surfaces/paging";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { nodeIdArgument, pageArgs, READ } from "../../surfaces/tool-args";
import { decodeIdCursor } from "../shared/cursor";
import { DEFAULT_HISTORY_PAGE, HistoryEntrySchema, MAX_HISTORY_PAGE } from "../shared/memory-view";

const HistorySchema = z
  .object({
    node_id: z.number().int(),
    history: z.array(HistoryEntrySchema),
    /** Versions in all. */
    total: z.number().int(),
    next_cursor: z.string().nullable(),
  })
  .openapi("MemoryHistory");

const HistoryQuerySchema = z
  .object({
    cursor: PageCursorQuery,
    limit: pageSizeQuery("limit", MAX_HISTORY_PAGE, DEFAULT_HISTORY_PAGE),
  })
  .strict();

const route = createRoute({
  operationId: "getMemoryHistory",
  method: "get",
  path: "/v1/agents/{agentId}/memories/{nodeId}/history",
  tags: ["memories"],
  summary: "The versions of a memory, oldest first",
  description:
    "Earlier versions were corrected by a later one (更正); they stay readable until forgetting takes them. A page of at most `limit` (default 50, at most 200) with the total; `next_cursor`, passed back as `cursor`, gives the next page.",
  request: { params: MemoryPathSchema, query: HistoryQuerySchema },
  responses: { 200: jsonAnswer(HistorySchema, "The versions"), ...errorResponses, 404: MEMORY_NOT_FOUND },
});

export const getMemoryHistory: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const history = await agent.getMemoryHistory({ node_id: 12, limit: 20 });
console.log(history);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const history = unwrap(await env.MEMORY.getMemoryHistory("assistant-1", { node_id: 12 }));`,
    },
    pathArgs: nodeIdArgument("The id of any version of the memory."),
    queryArgs: pageArgs("Versions"),
    tool: {
      name: "get_memory_history",
      title: "Versions of a memory",
      description: "The versions of a corrected memory, oldest first: what it said before each update_memory.",
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, nodeId } = c.req.valid("param");
      const query = c.req.valid("query");
      // The cursor is opaque to clients (src/operations/shared/cursor.ts): the last id of the previous page.
      const after = query.cursor === undefined ? 0 : (decodeIdCursor(query.cursor) ?? 0);
      const page = await agentOf(c, agentId).ask("getMemoryHistory", {
        node_id: nodeId,
        after,
        limit: query.limit ?? DEFAULT_HISTORY_PAGE,
      });
      if (!page.found) throw new ApiError("not_found", `memory ${nodeId} not found`);
      return c.json({ node_id: nodeId, history: page.history, total: page.total, next_cursor: page.next_cursor }, 200);
    }),
};
