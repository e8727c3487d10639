/**
 * The routes of the integration surfaces (docs/design.md, "Integration surfaces"): the function-calling tool schemas,
 * the endpoint that executes one tool call, and the MCP endpoint. Their handlers are in
 * src/routes/tools.ts and src/routes/mcp.ts; the tools themselves are the operations marked as
 * tools in src/routes/operations.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { AgentPathSchema, EmptyQuerySchema, errorsOf, TextSchema } from "./common";
import { WriteHeadersSchema } from "./headers";

export const TOOL_FORMATS = ["openai", "anthropic"] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

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

export const ToolListSchema = z
  .object({ format: z.enum(TOOL_FORMATS), tools: z.array(z.union([OpenAiToolSchema, AnthropicToolSchema])) })
  .openapi("ToolList");

export const listToolsRoute = createRoute({
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

export const openApiRoute = createRoute({
  method: "get",
  path: "/v1/openapi.json",
  operationId: "getOpenApi",
  security: [],
  tags: ["service"],
  summary: "This OpenAPI 3.1 document",
  description:
    "Every operation of the API; `servers` names the local server's origin under `npm run dev`, and `/` (the host the document came from) in a deployment.",
  request: { query: EmptyQuerySchema },
  responses: {
    200: { description: "The document", content: { "application/json": { schema: JsonObjectSchema.openapi("OpenApiDocument") } } },
    ...errorsOf({ auth: false }),
  },
});

/** Arguments of a tool call, as models produce them: an object, or its JSON text (OpenAI's `function.arguments`). */
const MAX_ARGUMENTS_TEXT = 1024 * 1024;

export function callToolRoute(toolNames: readonly [string, ...string[]]) {
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

/** One JSON-RPC 2.0 message (MCP sends one per POST). */
const JsonRpcMessageSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string().max(256), z.number().int()]).optional(),
    method: z.string().min(1).max(256),
    params: JsonObjectSchema.optional(),
  })
  .strict()
  .openapi("JsonRpcRequest");

const JsonRpcAnswerSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number(), z.null()]),
    result: JsonObjectSchema.optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi("JsonRpcResponse");

export const mcpRoute = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/mcp",
  operationId: "mcp",
  tags: ["integration"],
  summary: "The agent's MCP server (Streamable HTTP, stateless)",
  description:
    "Model Context Protocol over Streamable HTTP for the agent of the path: `initialize`, `tools/list`, `tools/call` and `ping`, one JSON-RPC message per POST, answered as JSON (no session, no server-sent stream: GET and DELETE answer 405). The tools are those of `GET /v1/tools`, with annotations and output schemas; a failed call is a tool result with `isError` and the API's error code, and `tools/call` params that are not `{name, arguments?: object}` answer JSON-RPC -32602. An Idempotency-Key is passed to the write a `tools/call` makes, as on `tools/call`.",
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: JsonRpcMessageSchema } } },
  },
  responses: {
    200: { description: "The JSON-RPC answer to a request", content: { "application/json": { schema: JsonRpcAnswerSchema } } },
    202: { description: "A notification, accepted (no answer)" },
    ...errorsOf({ body: true }),
  },
});
