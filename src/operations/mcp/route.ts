/**
 * mcp (docs/design.md, "Integration surfaces"): the agent's MCP server over the tools (the
 * operations whose entry names a tool; their schemas read from the root app's own OpenAPI
 * document). It speaks Model Context Protocol over Streamable HTTP, stateless, with the official
 * SDK's server (`@modelcontextprotocol/sdk`, its web-standard transport, JSON answers) created per
 * request. The agent is the path's, the key the request's Bearer (checked by the same middleware
 * as every agent route before this runs); a tool call runs the operation's REST request in-process
 * with that same key and agent (src/surfaces/tool-call.ts), so an MCP session can never reach another
 * agent: no tool takes an agent id. A wrong call or a refusal of the operation is a tool result
 * with `isError` whose text is the API's error envelope (its code included); tools/call params of
 * the wrong shape are JSON-RPC -32602; a malformed JSON-RPC message is the API's 400. A
 * `tools/call` passes the request's Idempotency-Key to the write it makes, as POST tools/call does.
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { inProcessCore } from "../../surfaces/in-process";
import { runTool, toolErrorText } from "../../surfaces/tool-call";
import { framedOutputSchema, framedStructure } from "../../surfaces/structured-frame";
import type { Tools } from "../../surfaces/tool-catalog";
import type { AppEnv } from "../../http/app-env";
import { errorResponse } from "../../http/errors";
import { defineOperation } from "../../surfaces/operation";

const JsonObjectSchema = z.record(z.string(), z.unknown());

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

const route = createRoute({
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

const SERVER_INFO = { name: "agent-memory", title: "Agent Memory", version: "0.1.0" };

const INSTRUCTIONS =
  "The long-term memory of one agent. Call `recall` (or `get_context`) before answering anything that may depend on earlier conversations, and `remember` with the messages worth keeping. Memories may be Chinese or English.";

/** JSON-RPC 2.0: the method's parameters are invalid. */
const INVALID_PARAMS = -32602;

const ToolCallParamsSchema = z
  .object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).optional(),
    _meta: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** Why tools/call params are not `{name, arguments?: object}`, or undefined. */
function invalidToolCallParams(params: unknown): string | undefined {
  const parsed = ToolCallParamsSchema.safeParse(params ?? {});
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const at = issue?.path.map(String).join(".") || "params";
  return `tools/call ${at}: ${issue?.code === "unrecognized_keys" ? "unknown field" : (issue?.message ?? "invalid")} (expected {name: string, arguments?: object})`;
}

/** The JSON-RPC error code a non-2xx answer of the transport carries in its body, if any. */
async function transportMessage(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (typeof body === "object" && body !== null && "error" in body) {
      const error: unknown = body.error;
      if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") return error.message;
    }
  } catch {
    // not JSON
  }
  return `the MCP transport refused the request (HTTP ${response.status})`;
}

/** The MCP server over `tools`. */
export function mcp(tools: Tools): Endpoint {
  return {
    operation: defineOperation(route, {
      scope: "read",
      tool: { reason: "the MCP endpoint serves the tools" },
      sdk: { reason: "MCP is spoken by MCP clients (e.g. @modelcontextprotocol/sdk's Client), not by this SDK" },
    }),
    routes: (root: OpenAPIHono<AppEnv>) => {
      return subApp().openapi(route, async (c) => {
        const agentId = c.req.valid("param").agentId;
        const message = c.req.valid("json");
        // The SDK's own check of tools/call params answers a raw dump as an internal error (-32603):
        // wrong params are the caller's, -32602, with a message a client can act on.
        const invalid = message.method === "tools/call" ? invalidToolCallParams(message.params) : undefined;
        if (invalid !== undefined && message.id !== undefined) {
          return c.json(
            { jsonrpc: "2.0" as const, id: message.id, error: { code: INVALID_PARAMS, message: `Invalid params: ${invalid}` } },
            200,
          );
        }
        const core = inProcessCore(root, c);
        const server = new Server(SERVER_INFO, {
          capabilities: { tools: { listChanged: false } },
          instructions: INSTRUCTIONS,
          // ajv (the default) compiles schemas with `new Function`, which Workers forbid.
          jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
        });
        server.setRequestHandler(ListToolsRequestSchema, () => ({
          tools: tools.catalog(root).map((t) => ({
            name: t.name,
            title: t.title,
            description: t.description,
            inputSchema: { ...t.inputSchema, type: "object" as const },
            outputSchema: { ...framedOutputSchema(t.outputSchema), type: "object" as const },
            annotations: { title: t.title, ...t.annotations },
          })),
        }));
        server.setRequestHandler(CallToolRequestSchema, async (request) => {
          const outcome = await runTool(tools.box, core, agentId, request.params.name, request.params.arguments ?? {}, {
            idempotencyKey: c.req.valid("header")["idempotency-key"],
          });
          if (outcome.ok) {
            const structured = typeof outcome.result === "object" && outcome.result !== null && !Array.isArray(outcome.result);
            return {
              content: [{ type: "text" as const, text: outcome.content }],
              ...(structured ? { structuredContent: framedStructure(outcome.result as Record<string, unknown>) } : {}),
            };
          }
          const error = {
            code: outcome.code,
            message: outcome.message,
            ...(outcome.details === undefined ? {} : { details: outcome.details }),
          };
          return { isError: true, content: [{ type: "text" as const, text: toolErrorText(error) }] };
        });
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await server.connect(transport);
        try {
          // Answers are always JSON (enableJsonResponse), so the transport's Accept rule (both JSON and
          // an event stream) is met on the caller's behalf; the body was read and checked already.
          const headers = new Headers(c.req.raw.headers);
          headers.set("Accept", "application/json, text/event-stream");
          const inner = new Request(c.req.raw.url, { method: "POST", headers });
          const response = await transport.handleRequest(inner, { parsedBody: message });
          if (response.status >= 400) return errorResponse(c, "validation_failed", await transportMessage(response));
          if (response.status === 202) return c.body(null, 202);
          return c.json((await response.json()) as Record<string, unknown>, 200);
        } finally {
          await server.close();
        }
      });
    },
  };
}
