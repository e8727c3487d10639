/** callTool (docs/design.md, "Integration surfaces"): execute one tool call an LLM produced, for the agent of the path. */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf, TextSchema } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { inProcessCore } from "../../surfaces/in-process";
import { runTool } from "../../surfaces/tool-call";
import type { Tools } from "../../surfaces/tool-catalog";
import type { AppEnv } from "../../http/app-env";
import { ApiError } from "../../http/errors";
import { defineOperation } from "../../surfaces/operation";

const JsonObjectSchema = z.record(z.string(), z.unknown());

/** Arguments of a tool call, as models produce them: an object, or its JSON text (OpenAI's `function.arguments`). */
const MAX_ARGUMENTS_TEXT = 1024 * 1024;

function callToolRoute(toolNames: readonly [string, ...string[]]) {
  return createRoute({
    method: "post",
    path: "/v1/agents/{agentId}/tools/call",
    operationId: "callTool",
    tags: ["integration"],
    summary: "Execute one tool call an LLM produced",
    description:
      "`name` is a tool of `GET /v1/tools`, `arguments` its arguments as the model produced them (an object, or the JSON text OpenAI returns). A call whose name or arguments are wrong is a 400 whose message names the argument and the problem, for the model to correct. Otherwise the operation runs for the agent of the path (never one named in the arguments) and answers like its REST endpoint; `content` is the text to hand back to the model. An Idempotency-Key is passed to the write the tool makes.",
    request: {
      params: AgentPathSchema,
      query: EmptyQuerySchema,
      headers: WriteHeadersSchema,
      body: {
        required: true,
        content: {
          "application/json": {
            schema: z
              .object({
                name: z.enum(toolNames).openapi({ description: "The tool's name." }),
                arguments: z
                  .union([JsonObjectSchema, TextSchema.max(MAX_ARGUMENTS_TEXT)])
                  .default({})
                  .openapi({ description: "The tool's arguments: an object, or its JSON text." }),
              })
              .strict()
              .openapi("ToolCall"),
          },
        },
      },
    },
    responses: {
      200: {
        description: "The tool ran",
        content: {
          "application/json": {
            schema: z
              .object({
                name: z.string(),
                content: z.string().openapi({ description: "What to give the model as the tool's result." }),
                result: z.unknown().openapi({ description: "The operation's answer, as its REST endpoint gives it." }),
              })
              .openapi("ToolResult"),
          },
        },
      },
      ...errorsOf({ body: true, write: true, notFound: true }),
    },
  });
}

/** POST tools/call over `tools`: its body names one of them. */
export function callTool(tools: Tools): Endpoint {
  const route = callToolRoute(tools.names);
  return {
    operation: defineOperation(route, {
      scope: "read",
      sdk: {
        example: `const { content } = await agent.callTool({ name: "recall", arguments: { query: "Where does Ines live?" } });
console.log(content);`,
      },
      tool: { reason: "executes the tools" },
    }),
    routes: (root: OpenAPIHono<AppEnv>) =>
      subApp().openapi(route, async (c) => {
        const { name, arguments: args } = c.req.valid("json");
        const outcome = await runTool(tools.box, inProcessCore(root, c), c.req.valid("param").agentId, name, args, {
          idempotencyKey: c.req.valid("header")["idempotency-key"],
        });
        if (outcome.ok) return c.json({ name: outcome.name, content: outcome.content, result: outcome.result }, 200);
        const headers = outcome.retryAfterS === undefined ? undefined : { "Retry-After": String(outcome.retryAfterS) };
        throw new ApiError(outcome.code, outcome.message, { details: outcome.details, ...(headers ? { headers } : {}) });
      }),
  };
}
