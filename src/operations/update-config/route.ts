/** updateConfig (docs/design.md, "Parameters"): change some of the agent's parameters, in order with its writes. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { defineOperation } from "../../surfaces/operation";
import { AgentParamsPatchSchema } from "../../config/params";
import { ApiError, COUNT_QUOTA_RETRY_S, quotaExceeded } from "../../http/errors";
import { ConfigSchema } from "../../surfaces/agent-config";

/** How long a config change waits for the writes queued before it (it applies in order). */
const CONFIG_WAIT_MS = 25_000;

const ConfigPatchSchema = AgentParamsPatchSchema.openapi("AgentConfigPatch", {
  description:
    "Any subset of the parameters; each is validated like the whole. Takes effect on the next compression cycle (focus_limit: on the next remember).",
});

/** PUT config's answer when the change is still queued behind earlier writes: follow the task. */
const ConfigPendingSchema = z.object({ task_id: z.string(), status: z.enum(["queued", "running"]) }).openapi("ConfigPending");

const route = createRoute({
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

export const updateConfig: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `await agent.updateConfig({ decay_rate: 0.95, focus_limit: 40, model_policy: { compression: "local" } });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.updateConfig("assistant-1", { decay_rate: 0.95 }));`,
    },
    tool: {
      name: "update_config",
      title: "Change memory parameters",
      description:
        "Change some of the agent's memory parameters (any subset; the others stay); they apply from the next compression cycle. A lower capacity or a faster decay makes the agent forget more, so change them only when the user asks.",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const agent = agentOf(c, c.req.valid("param").agentId);
      const { capacity } = c.req.valid("json");
      const { nodesPerAgent } = c.get("principal").limits;
      // The capacity is the agent's share of its tenant's nodes-per-agent quota: never above it.
      if (capacity !== undefined && capacity > nodesPerAgent) throw quotaExceeded("nodes_per_agent", nodesPerAgent, COUNT_QUOTA_RETRY_S);
      // A queued write: it applies after whatever was accepted before it (a pending deletion included).
      const outcome = await agent.submit("updateConfig", c.req.valid("json"), {
        waitMs: CONFIG_WAIT_MS,
        ...writeOptions(c.req.valid("header")),
      });
      if (outcome.status === "failed") throw new ApiError("validation_failed", outcome.error ?? "invalid parameters");
      if (outcome.result) return c.json(outcome.result, 200);
      const status = outcome.status === "running" ? "running" : "queued";
      return c.json({ task_id: outcome.taskIds[0] ?? "", status: status as "queued" | "running" }, 202);
    }),
};
