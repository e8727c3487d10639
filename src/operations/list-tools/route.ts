/** listTools (docs/design.md, "Integration surfaces"): the memory tools as function-calling schemas, in OpenAI's or Anthropic's format. */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { formatTools } from "../../../sdk/src/tools";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { errorsOf } from "../../surfaces/common-schemas";
import type { Tools } from "../../surfaces/tool-catalog";
import { defineOperation } from "../../surfaces/operation";
import type { AppEnv } from "../../http/app-env";

const TOOL_FORMATS = ["openai", "anthropic"] as const;

const JsonObjectSchema = z.record(z.string(), z.unknown());

const OpenAiToolSchema = z
  .object({
    type: z.literal("function"),
    function: z.object({ name: z.string(), description: z.string(), parameters: JsonObjectSchema }),
  })
  .openapi("OpenAiTool", { description: "A tool as OpenAI's Chat Completions API takes it (`tools: [...]`)." });

const AnthropicToolSchema = z
  .object({ name: z.string(), description: z.string(), input_schema: JsonObjectSchema })
  .openapi("AnthropicTool", { description: "A tool as Anthropic's Messages API takes it (`tools: [...]`)." });

const ToolListSchema = z
  .object({ format: z.enum(TOOL_FORMATS), tools: z.array(z.union([OpenAiToolSchema, AnthropicToolSchema])) })
  .openapi("ToolList");

const route = createRoute({
  method: "get",
  path: "/v1/tools",
  operationId: "listTools",
  security: [],
  tags: ["integration"],
  summary: "The memory tools as function-calling schemas",
  description:
    "Every operation a model may call, with a JSON Schema of its arguments, in OpenAI's or Anthropic's format. Execute a call the model produced with `POST /v1/agents/{agentId}/tools/call`. The same tools are served over MCP at `/v1/agents/{agentId}/mcp`.",
  request: {
    query: z
      .object({
        format: z.enum(TOOL_FORMATS).default("openai").openapi({ description: "openai (Chat Completions) or anthropic (Messages)." }),
      })
      .strict(),
  },
  responses: {
    200: { description: "The tools", content: { "application/json": { schema: ToolListSchema } } },
    ...errorsOf({ auth: false }),
  },
});

/** GET /v1/tools over `tools`. */
export function listTools(tools: Tools): Endpoint {
  return {
    operation: defineOperation(route, {
      scope: "public",
      sdk: {
        example: `const tools = await memory.listTools({ format: "anthropic" });
console.log(tools);`,
      },
      queryArgs: { format: z.enum(TOOL_FORMATS).optional().describe("openai (default) or anthropic.") },
      tool: { reason: "lists the tools" },
    }),
    routes: (root: OpenAPIHono<AppEnv>) => {
      return subApp().openapi(route, (c) => {
        const { format } = c.req.valid("query");
        return c.json({ format, tools: formatTools(tools.catalog(root), format) }, 200);
      });
    },
  };
}
