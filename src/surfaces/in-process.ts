/**
 * The REST API called from inside the Worker, as a client would call it: the integration surfaces
 * (tools/call, MCP) run an operation by sending its REST request through the same app, with the
 * caller's own key, so authentication, validation, idempotency, errors and isolation are those of
 * the REST endpoint itself. No network: `app.fetch` is called directly. The request/answer mapping
 * is the SDK's (sdk/src/http.ts), so every surface binds arguments to HTTP the same way.
 */
import type { Context } from "hono";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { HttpCore } from "../../sdk/src/http";
import type { AppEnv } from "../http/app-env";
import { bearerKey } from "../http/auth";
import { markInProcess } from "../http/in-process";

type ExecutionCtx = Parameters<OpenAPIHono<AppEnv>["fetch"]>[2];

export function inProcessCore(app: OpenAPIHono<AppEnv>, c: Context<AppEnv>): HttpCore {
  let ctx: ExecutionCtx;
  try {
    ctx = c.executionCtx;
  } catch {
    ctx = undefined; // outside the Workers runtime (scripts): nothing to extend
  }
  const acceptLanguage = c.req.header("Accept-Language");
  return new HttpCore({
    baseUrl: new URL(c.req.url).origin,
    // The outer request passed authentication with this key; the inner one is checked again.
    apiKey: bearerKey(c.req.header("Authorization")) ?? "",
    // The labels follow the outer request's language, as they would over REST (docs/design.md, "The labels' language").
    headers: acceptLanguage === undefined ? {} : { "Accept-Language": acceptLanguage },
    // Marked: the tenant's request rate counts the outer request only (src/http/in-process.ts).
    fetch: async (request) => app.fetch(markInProcess(request), c.env, ctx),
    // One attempt, no timer: the caller's own client retries and times out the outer request.
    retry: { retries: 0 },
    timeoutMs: 0,
  });
}
