/** Function-calling tools (docs/design.md, "Integration surfaces"): their schemas, and the execution of one call a model produced. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { formatTools } from "../../sdk/src/tools";
import { listToolsRoute } from "../api/integration";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { inProcessCore } from "../api/in-process";
import { CALL_TOOL_ROUTE } from "./operations";
import type { ToolCatalog } from "../api/tool-catalog";
import { runTool } from "../api/tool-call";

export function registerTools(app: OpenAPIHono<AppEnv>, catalog: ToolCatalog): void {
  app.openapi(listToolsRoute, (c) => {
    const { format } = c.req.valid("query");
    return c.json({ format, tools: formatTools(catalog(), format) }, 200);
  });
  app.openapi(CALL_TOOL_ROUTE, async (c) => {
    const { name, arguments: args } = c.req.valid("json");
    const outcome = await runTool(inProcessCore(app, c), c.req.valid("param").agentId, name, args, {
      idempotencyKey: c.req.valid("header")["idempotency-key"],
    });
    if (outcome.ok) return c.json({ name: outcome.name, content: outcome.content, result: outcome.result }, 200);
    const headers = outcome.retryAfterS === undefined ? undefined : { "Retry-After": String(outcome.retryAfterS) };
    throw new ApiError(outcome.code, outcome.message, { details: outcome.details, ...(headers ? { headers } : {}) });
  });
}
