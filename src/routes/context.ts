/** Context for prompts (docs/design.md, "Context for prompts"): the context block, the profile, and episodes for older memories. */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentPathSchema, EmptyQuerySchema, errorResponses, errorsOf } from "../api/common";
import {
  ContextRequestSchema,
  ContextResponseSchema,
  ProfileResponseSchema,
  ProfileUrlQuerySchema,
  RebuildEpisodesAcceptedSchema,
} from "../api/context";
import { WriteHeadersSchema } from "../api/headers";
import { localePreference } from "../http/accept-language";
import type { AppEnv } from "../http/app-env";
import { agentOf, writeOptions } from "../api/agent-of";

/** How long a rebuild request waits before answering with its task. */
const REBUILD_WAIT_MS = 25_000;

export const contextRoute = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/context",
  operationId: "getContext",
  tags: ["context"],
  summary: "A context block for a prompt, within a token budget",
  description:
    "The memories recall ranks for the query (or for the latest messages), each with its energy (● ○ ◌ from min(importance, 1)) and the entities it is about, conflicts marked; the latest episodes first when the query asks about an earlier conversation; traces of forgotten memories; the profile when asked. Never longer than `budget_tokens`: pieces are taken whole, most relevant first. Plain text by default, JSON with `format: json`.",
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    body: { required: true, content: { "application/json": { schema: ContextRequestSchema } } },
  },
  responses: {
    200: {
      description: "The block",
      content: { "text/plain": { schema: z.string() }, "application/json": { schema: ContextResponseSchema } },
    },
    ...errorsOf({ body: true }),
  },
});

export const profileRoute = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/profile",
  operationId: "getProfile",
  tags: ["context"],
  summary: "The agent's profile: main participants, most important entities with their strongest memories, the focus",
  description: "Derived from the network when asked (it forgets as the network does).",
  request: { params: AgentPathSchema, query: ProfileUrlQuerySchema },
  responses: {
    200: { description: "The profile", content: { "application/json": { schema: ProfileResponseSchema } } },
    ...errorResponses,
  },
});

export const rebuildEpisodesRoute = createRoute({
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

export function registerContext(app: OpenAPIHono<AppEnv>): void {
  app.openapi(contextRoute, async (c) => {
    const { format, locale, ...request } = c.req.valid("json");
    const result = await agentOf(c, c.req.valid("param").agentId).ask("getContext", { ...request, ...localePreference(c, locale) });
    if (format === "json") return c.json(result, 200);
    return c.text(result.text, 200);
  });
  app.openapi(profileRoute, async (c) => {
    const result = await agentOf(c, c.req.valid("param").agentId).ask("getProfile", localePreference(c, c.req.valid("query").locale));
    return c.json(result, 200);
  });
  app.openapi(rebuildEpisodesRoute, async (c) => {
    const agent = agentOf(c, c.req.valid("param").agentId);
    const outcome = await agent.submit("rebuildEpisodes", {}, { waitMs: REBUILD_WAIT_MS, ...writeOptions(c.req.valid("header")) });
    const body = {
      task_id: outcome.taskIds[0] ?? "",
      status: outcome.status === "done" ? ("done" as const) : outcome.status === "running" ? ("running" as const) : ("queued" as const),
      episodes_created: outcome.result?.episodes_created ?? null,
    };
    return body.status === "done" ? c.json(body, 200) : c.json(body, 202);
  });
}
