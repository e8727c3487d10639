/** Per-agent parameters (docs/design.md, "Parameters") and on-demand compression cycles. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../http/agent-of";
import { subApp, type Area } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorResponses, errorsOf } from "../../http/common-schemas";
import { WriteHeadersSchema } from "../../http/headers";
import { defineOperation } from "../../surfaces/operation";
import { READ } from "../../surfaces/tool-args";
import { AgentParamsPatchSchema, AgentParamsSchema } from "../../config/params";
import { ApiError } from "../../http/errors";

/** How long a config change waits for the writes queued before it (it applies in order). */
const CONFIG_WAIT_MS = 25_000;

const ConfigSchema = AgentParamsSchema.openapi("AgentConfig");
const ConfigPatchSchema = AgentParamsPatchSchema.openapi("AgentConfigPatch", {
  description:
    "Any subset of the parameters; each is validated like the whole. Takes effect on the next compression cycle (focus_limit: on the next remember).",
});

const MAX_CYCLES_PER_REQUEST = 1000;

const CompressRequestSchema = z
  .object({
    cycles: z.number().int().min(1).max(MAX_CYCLES_PER_REQUEST).default(1).openapi({ description: "Compression cycles to queue." }),
  })
  .strict()
  .openapi("CompressRequest");

const CompressAcceptedSchema = z.object({ task_ids: z.array(z.string()), status: z.literal("queued") }).openapi("CompressAccepted");

/** PUT config's answer when the change is still queued behind earlier writes: follow the task. */
const ConfigPendingSchema = z.object({ task_id: z.string(), status: z.enum(["queued", "running"]) }).openapi("ConfigPending");

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

const getConfig = defineOperation(getConfigRoute, {
  tool: {
    name: "get_config",
    title: "Memory parameters",
    description:
      "The agent's memory parameters: focus size, link decay per compression cycle, deletion threshold, capacity, automatic compression.",
    annotations: READ,
  },
});

const updateConfig = defineOperation(updateConfigRoute, {
  tool: {
    name: "update_config",
    title: "Change memory parameters",
    description:
      "Change some of the agent's memory parameters (any subset; the others stay); they apply from the next compression cycle. A lower capacity or a faster decay makes the agent forget more, so change them only when the user asks.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

const compressMemories = defineOperation(compressRoute, {
  tool: {
    name: "compress_memories",
    title: "Run forgetting cycles",
    description:
      "Run compression cycles now (one also runs after every remember): links weaken, unimportant memories are shortened and at last forgotten, leaving traces. Only when the user asks to forget or to tidy the memory.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
});

export const CONFIG: Area = {
  operations: [getConfig, updateConfig, compressMemories],
  routes: () =>
    subApp()
      .openapi(getConfigRoute, async (c) => {
        const agent = agentOf(c, c.req.valid("param").agentId);
        return c.json(await agent.stub.config(agent.identity), 200);
      })
      .openapi(updateConfigRoute, async (c) => {
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
      })
      .openapi(compressRoute, async (c) => {
        const { cycles } = CompressRequestSchema.parse(c.req.valid("json") ?? {});
        const outcome = await agentOf(c, c.req.valid("param").agentId).submit("compressMemories", null, {
          repeat: cycles,
          ...writeOptions(c.req.valid("header")),
        });
        return c.json({ task_ids: outcome.taskIds, status: "queued" as const }, 202);
      }),
};
