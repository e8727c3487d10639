/** getMemory (docs/design.md, "Memory operations (as built)"): one memory with its links, provenance, facts, conflicts, aliases and history. */
import { createRoute } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { errorResponses, jsonAnswer } from "../../surfaces/common-schemas";
import { ApiError } from "../../http/errors";
import { MEMORY_NOT_FOUND, MemoryPathSchema } from "../../surfaces/memory-routes";
import { linksPageOf, LinksPageQuerySchema } from "../../surfaces/paging";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { LANGUAGES, linksPageArgs, nodeIdArgument, READ } from "../../surfaces/tool-args";
import { MemoryViewSchema } from "../shared/memory-view";

const MemorySchema = MemoryViewSchema.openapi("Memory");

const route = createRoute({
  operationId: "getMemory",
  method: "get",
  path: "/v1/agents/{agentId}/memories/{nodeId}",
  tags: ["memories"],
  summary: "One memory (or entity) with its links, provenance, facts, conflicts, aliases and history",
  description:
    "Its links are a page of each direction with their totals (`links_limit`, `links_cursor`: as GET nodes/{nodeId}); its history lists up to 50 versions, oldest first, and `history_next_cursor` continues through GET …/history.",
  request: { params: MemoryPathSchema, query: LinksPageQuerySchema },
  responses: { 200: jsonAnswer(MemorySchema, "The memory"), ...errorResponses, 404: MEMORY_NOT_FOUND },
});

export const getMemory: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const memory12 = await agent.getMemory({ node_id: 12 });
console.log(memory12.content, memory12.conflicts_with, memory12.history.length);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const memory12 = unwrap(await env.MEMORY.getMemory("assistant-1", { node_id: 12 }));`,
    },
    pathArgs: nodeIdArgument("The memory's id (node_id in recall, search and create_memory answers)."),
    queryArgs: linksPageArgs,
    tool: {
      name: "get_memory",
      title: "Read a memory with its history",
      description: `One memory (or entity) with its links, provenance, meta, aliases, the memories it contradicts and its versions: what get_memory_node gives plus what the memory operations recorded. ${LANGUAGES}`,
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, nodeId } = c.req.valid("param");
      const { memory } = await agentOf(c, agentId).ask("getMemory", { node_id: nodeId, links: linksPageOf(c.req.valid("query")) });
      if (!memory) throw new ApiError("not_found", `memory ${nodeId} not found`);
      return c.json(memory, 200);
    }),
};
