/** getMemoryNode: one node with its outgoing and incoming links, a page of each. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentIdSchema, errorsOf, NodeIdSchema } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { linksPageOf, LinksPageQuerySchema } from "../../surfaces/paging";
import { linksPageArgs, nodeIdArgument, READ } from "../../surfaces/tool-args";
import { ApiError } from "../../http/errors";
import { NodeViewSchema } from "../shared/node-view";

const NodeSchema = NodeViewSchema.openapi("Node");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/nodes/{nodeId}",
  operationId: "getMemoryNode",
  tags: ["memory"],
  summary: "One node with its outgoing and incoming links",
  description:
    "The links are a page of each direction (by the far end's id, then the relation; `links_limit` per direction, default 200), with their totals; `links.next_cursor`, passed back as `links_cursor`, gives the next page.",
  request: { params: z.object({ agentId: AgentIdSchema, nodeId: NodeIdSchema }), query: LinksPageQuerySchema },
  responses: {
    200: { description: "The node", content: { "application/json": { schema: NodeSchema } } },
    ...errorsOf({ notFound: true }),
  },
});

export const getMemoryNode: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const node = await agent.getMemoryNode({ node_id: 12, links_limit: 50 });
console.log(node.kind, node.content, node.links.total.outgoing);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const node = unwrap(await env.MEMORY.getMemoryNode("assistant-1", { node_id: 12 }));`,
    },
    queryArgs: linksPageArgs,
    pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, focus and context answers.", Number.MAX_SAFE_INTEGER),
    tool: {
      name: "get_memory_node",
      title: "Read one memory",
      description:
        "Read one memory node by id: its full content, kind (segment, entity, memory, episode), keywords, importance, provenance (source message ids, speaker, time) and its links, including links to memories since forgotten.",
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { agentId, nodeId } = c.req.valid("param");
      const agent = agentOf(c, agentId);
      const node = await agent.stub.node(agent.identity, nodeId, linksPageOf(c.req.valid("query")));
      if (!node) throw new ApiError("not_found", `node ${nodeId} not found`);
      return c.json(node, 200);
    }),
};
