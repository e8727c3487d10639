/** compressMemories (docs/design.md, "Compression"): queue compression cycles now. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { defineOperation } from "../../surfaces/operation";

const MAX_CYCLES_PER_REQUEST = 1000;

const CompressRequestSchema = z
  .object({
    cycles: z.number().int().min(1).max(MAX_CYCLES_PER_REQUEST).default(1).openapi({ description: "Compression cycles to queue." }),
  })
  .strict()
  .openapi("CompressRequest");

const CompressAcceptedSchema = z.object({ task_ids: z.array(z.string()), status: z.literal("queued") }).openapi("CompressAccepted");

const route = createRoute({
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

export const compressMemories: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `const { task_ids } = await agent.compressMemories({ cycles: 3 });
for (const taskId of task_ids) await agent.waitForTask(taskId);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const { task_ids } = unwrap(await env.MEMORY.compressMemories("assistant-1", { cycles: 2 }));`,
    },
    tool: {
      name: "compress_memories",
      title: "Run forgetting cycles",
      description:
        "Run compression cycles now (one also runs after every remember): links weaken, unimportant memories are shortened and at last forgotten, leaving traces. Only when the user asks to forget or to tidy the memory.",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { cycles } = CompressRequestSchema.parse(c.req.valid("json") ?? {});
      const outcome = await agentOf(c, c.req.valid("param").agentId).submit("compressMemories", null, {
        repeat: cycles,
        ...writeOptions(c.req.valid("header")),
      });
      return c.json({ task_ids: outcome.taskIds, status: "queued" as const }, 202);
    }),
};
