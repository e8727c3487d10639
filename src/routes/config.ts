/** Per-agent parameters (docs/design.md, "Parameters") and on-demand compression cycles. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentPathSchema, EmptyQuerySchema, errorResponses, errorsOf } from "../api/common";
import { CompressAcceptedSchema, CompressRequestSchema, ConfigPatchSchema, ConfigPendingSchema, ConfigSchema } from "../api/config";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { WriteHeadersSchema } from "../api/headers";
import { agentOf, writeOptions } from "../api/agent-of";

/** How long a config change waits for the writes queued before it (it applies in order). */
const CONFIG_WAIT_MS = 25_000;

export const getConfigRoute = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/config",
  operationId: "getConfig",
  tags: ["config"],
  summary: "The agent's parameters",
  request: { params: AgentPathSchema, query: EmptyQuerySchema },
  responses: {
    200: { description: "Parameters", content: { "application/json": { schema: ConfigSchema } } },
    ...errorResponses,
  },
});

export const updateConfigRoute = createRoute({
  method: "put",
  path: "/v1/agents/{agentId}/config",
  operationId: "updateConfig",
  tags: ["config"],
  summary: "Change some of the agent's parameters",
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: ConfigPatchSchema } } },
  },
  responses: {
    200: { description: "The parameters now in force", content: { "application/json": { schema: ConfigSchema } } },
    202: {
      description: "Queued behind earlier writes and not applied yet: follow the task",
      content: { "application/json": { schema: ConfigPendingSchema } },
    },
    ...errorsOf({ body: true, write: true }),
  },
});

export const compressRoute = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/compress",
  operationId: "compressMemories",
  tags: ["config"],
  summary: "Queue compression cycles now",
  description:
    "Each cycle decays every link not incident to the focus and scans the nodes (docs/design.md, “Compression”). Cycles also run after every remember.",
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    headers: WriteHeadersSchema,
    body: { required: false, content: { "application/json": { schema: CompressRequestSchema } } },
  },
  responses: {
    202: { description: "Queued", content: { "application/json": { schema: CompressAcceptedSchema } } },
    ...errorsOf({ body: true, write: true }),
  },
});

export function registerConfig(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getConfigRoute, async (c) => {
    const agent = agentOf(c, c.req.valid("param").agentId);
    return c.json(await agent.stub.config(agent.identity), 200);
  });
  app.openapi(updateConfigRoute, async (c) => {
    const agent = agentOf(c, c.req.valid("param").agentId);
    // A queued write: it applies after whatever was accepted before it (a pending deletion included).
    const outcome = await agent.submit("updateConfig", c.req.valid("json"), {
      waitMs: CONFIG_WAIT_MS,
      ...writeOptions(c.req.valid("header")),
    });
    if (outcome.status === "failed") throw new ApiError("validation_failed", outcome.error ?? "invalid parameters");
    if (outcome.result) return c.json(outcome.result, 200);
    const status = outcome.status === "running" ? "running" : "queued";
    return c.json({ task_id: outcome.taskIds[0] ?? "", status: status as "queued" | "running" }, 202);
  });
  app.openapi(compressRoute, async (c) => {
    const { cycles } = CompressRequestSchema.parse(c.req.valid("json") ?? {});
    const outcome = await agentOf(c, c.req.valid("param").agentId).submit("compressMemories", null, {
      repeat: cycles,
      ...writeOptions(c.req.valid("header")),
    });
    return c.json({ task_ids: outcome.taskIds, status: "queued" as const }, 202);
  });
}
