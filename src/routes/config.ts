/** Per-agent parameters (DESIGN §2) and on-demand compression cycles. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AgentParamsSchema as AgentPathSchema, ErrorSchema, errorResponses } from "../api/common";
import { CompressAcceptedSchema, CompressRequestSchema, ConfigPatchSchema, ConfigSchema } from "../api/config";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { agentOf } from "./agent-of";

const getConfig = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/config",
  tags: ["config"],
  summary: "The agent's parameters",
  request: { params: AgentPathSchema },
  responses: {
    200: { description: "Parameters", content: { "application/json": { schema: ConfigSchema } } },
    ...errorResponses,
  },
});

const putConfig = createRoute({
  method: "put",
  path: "/v1/agents/{agentId}/config",
  tags: ["config"],
  summary: "Change some of the agent's parameters",
  request: {
    params: AgentPathSchema,
    body: { required: true, content: { "application/json": { schema: ConfigPatchSchema } } },
  },
  responses: {
    200: { description: "The parameters now in force", content: { "application/json": { schema: ConfigSchema } } },
    ...errorResponses,
  },
});

const compress = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/compress",
  tags: ["config"],
  summary: "Queue compression cycles now",
  description:
    "Each cycle decays every link not incident to the focus and scans the nodes (DESIGN §6). Cycles also run after every remember.",
  request: {
    params: AgentPathSchema,
    body: { required: false, content: { "application/json": { schema: CompressRequestSchema } } },
  },
  responses: {
    202: { description: "Queued", content: { "application/json": { schema: CompressAcceptedSchema } } },
    ...errorResponses,
    429: { description: "The agent's queue is full", content: { "application/json": { schema: ErrorSchema } } },
  },
});

export function registerConfig(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getConfig, async (c) => {
    const { identity, stub } = agentOf(c, c.req.valid("param").agentId);
    return c.json(await stub.config(identity), 200);
  });
  app.openapi(putConfig, async (c) => {
    const { identity, stub } = agentOf(c, c.req.valid("param").agentId);
    return c.json(await stub.updateConfig(identity, c.req.valid("json")), 200);
  });
  app.openapi(compress, async (c) => {
    const { identity, stub } = agentOf(c, c.req.valid("param").agentId);
    const { cycles } = CompressRequestSchema.parse(c.req.valid("json") ?? {});
    const outcome = await stub.compress(identity, cycles);
    if (!outcome.ok) {
      c.header("Retry-After", "5");
      throw new ApiError(429, "queue_full", outcome.message);
    }
    return c.json({ task_ids: outcome.taskIds, status: "queued" as const }, 202);
  });
}
