/** rebuildEpisodes (docs/design.md, "Context for prompts: episodes, profile, context block"): episodes for submissions remembered before episodes existed. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { defineOperation } from "../../surfaces/operation";
import { noBody } from "../../http/body";

/** How long a rebuild request waits before answering with its task. */
const REBUILD_WAIT_MS = 25_000;

const RebuildEpisodesAcceptedSchema = z
  .object({ task_id: z.string(), status: z.enum(["queued", "running", "done"]), episodes_created: z.number().int().nullable() })
  .openapi("EpisodesRebuild");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/episodes/rebuild",
  operationId: "rebuildEpisodes",
  tags: ["context"],
  summary: "Give episodes to submissions remembered before episodes existed",
  description: "Runs in order with the agent's writes; waits up to 25 s, then answers 202 with the task.",
  request: { params: AgentPathSchema, query: EmptyQuerySchema, headers: WriteHeadersSchema },
  responses: {
    200: { description: "Done", content: { "application/json": { schema: RebuildEpisodesAcceptedSchema } } },
    202: { description: "Under way", content: { "application/json": { schema: RebuildEpisodesAcceptedSchema } } },
    ...errorsOf({ write: true }),
  },
});

export const rebuildEpisodes: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `console.log(await agent.rebuildEpisodes());`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const rebuilt = unwrap(await env.MEMORY.rebuildEpisodes("assistant-1"));`,
    },
    tool: {
      name: "rebuild_episodes",
      title: "Rebuild episodes",
      description:
        "Give an episode (a summary of one conversation, its participants and time span) to every conversation remembered before episodes existed. Maintenance: once after an upgrade, when get_context finds no earlier conversations that should be there; calling it again does nothing more.",
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () => {
    const app = subApp();
    // Its meaning is its path: a body is refused, never ignored (issue 34 finding 11).
    app.use("/v1/agents/:agentId/episodes/rebuild", noBody);
    return app.openapi(route, async (c) => {
      const agent = agentOf(c, c.req.valid("param").agentId);
      const outcome = await agent.submit("rebuildEpisodes", {}, { waitMs: REBUILD_WAIT_MS, ...writeOptions(c.req.valid("header")) });
      const body = {
        task_id: outcome.taskIds[0] ?? "",
        status: outcome.status === "done" ? ("done" as const) : outcome.status === "running" ? ("running" as const) : ("queued" as const),
        episodes_created: outcome.result?.episodes_created ?? null,
      };
      return body.status === "done" ? c.json(body, 200) : c.json(body, 202);
    });
  },
};
