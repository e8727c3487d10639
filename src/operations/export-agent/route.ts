/**
 * exportAgent (docs/design.md, "Memory operations"): the agent's whole memory as versioned JSON Lines
 * (src/operations/shared/export-format.ts), streamed out.
 */
import { AgentPathSchema, EmptyQuerySchema, errorResponses } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";

/** The media type of JSON Lines, typed as a plain string: the route's answer is a stream, not a JSON body. */
const NDJSON: string = "application/x-ndjson";

const route = createRoute({
  operationId: "exportAgent",
  method: "get",
  path: "/v1/agents/{agentId}/export",
  tags: ["transfer"],
  summary: "Export the agent's whole memory as JSON Lines",
  description:
    "A header (format agent-memory-export, version 1, parameters, decay clock, counters), the focus, every node (provenance, meta, superseded_by, scan count), every link including dangling ones (level against the clock, strength, pinned), every alias, the message ids held, and an end line with the counts. Read at one moment, after every write accepted before the request; streamed.",
  request: { params: AgentPathSchema, query: EmptyQuerySchema },
  responses: {
    200: { description: "The export", content: { [NDJSON]: { schema: z.string() } } },
    ...errorResponses,
  },
});

export const exportAgent: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    tool: { reason: "a whole agent's memory as JSON Lines, for backups and moves" },
    sdk: { reason: "a JSON Lines stream, not a JSON answer: fetch GET /v1/agents/{agentId}/export" },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const agent = agentOf(c, c.req.valid("param").agentId);
      const body = await agent.stub.exportLines(agent.identity);
      return c.body(body, 200, {
        "Content-Type": "application/x-ndjson; charset=utf-8",
        "Content-Disposition": `attachment; filename="${agent.identity.agentId}.jsonl"`,
      });
    }),
};
