/**
 * The HTTP API: Hono with zod-openapi. Middleware order, and why:
 *
 * 1. request id, `X-Content-Type-Options: nosniff` on every answer, and on the local server
 *    (the development key configured) the refusal of any request not addressed to this machine
 *    (DNS rebinding: src/http/local-origin.ts);
 * 2. the route guard: 404 for a path the API does not serve, 405 with Allow for a method its path
 *    does not take, OPTIONS answered (same-origin only, no CORS grant), all before authentication
 *    and before any body is read;
 * 3. auth, for the agent and key routes: the key is checked before a body is buffered, then the
 *    tenant's requests per minute (src/http/request-rate.ts); each operation's scope is checked
 *    just before its route (src/http/scope-guard.ts, mounted with the routes);
 * 4. the body reader: bounded (413), none on GET/HEAD/DELETE, JSON in UTF-8 (except an import's
 *    body, which its route reads as a stream under its own bound);
 * 5. each route validates its params, query, headers and body with its zod schema (each operation's
 *    route, src/operations/<operation>/route.ts, is a sub-app that src/routes mounts here).
 *
 * Every error answer, hono's own included, is the envelope built in src/http/errors.ts.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { MAX_BODY_BYTES } from "./config/limits";
import { mountAreas } from "./routes";
import type { AppEnv } from "./http/app-env";
import { requireApiKey } from "./http/auth";
import { readBody } from "./http/body";
import { drainRefused } from "./http/drain";
import { errorResponse, handleError } from "./http/errors";
import { localOriginOnly, noSniff } from "./http/local-origin";
import { requestRate } from "./http/request-rate";
import { routeGuard } from "./http/route-guard";
import { validationHook } from "./http/validation-hook";

const IMPORT_PATH = /^\/v1\/agents\/[^/]+\/import$/;

/** What needs a key: the agents (and the list of them) and the tenant's keys. */
const AUTHENTICATED_PATHS = ["/v1/agents/*", "/v1/keys", "/v1/keys/*"];

/**
 * `authenticate` names the tenant of an agent route: the Bearer key by default; the Workers RPC
 * entrypoint's own app takes it from the service binding's configuration (src/rpc).
 */
export function createApp(options: { authenticate?: MiddlewareHandler<AppEnv> } = {}): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // First: whatever refuses the request below, the client's body is read before the answer.
  app.use("*", drainRefused());
  app.use("*", requestId());
  app.use("*", noSniff);
  app.use("*", localOriginOnly);
  app.use(
    "*",
    routeGuard(() => app.routes),
  );
  const authenticate = options.authenticate ?? requireApiKey;
  for (const path of AUTHENTICATED_PATHS) {
    app.use(path, authenticate);
    app.use(path, requestRate);
  }
  // An import streams its own body under its own limit (src/operations/import-agent/route.ts): never buffered here.
  const bodies = readBody(MAX_BODY_BYTES);
  app.use("/v1/*", (c, next) => (c.req.method === "POST" && IMPORT_PATH.test(c.req.path) ? next() : bodies(c, next)));
  mountAreas(app);
  // The route guard answers unknown paths first; this only backs it up.
  app.notFound((c) => errorResponse(c, "not_found", "no such endpoint"));
  app.onError(handleError);
  return app;
}

export { openApiConfig } from "./operations/get-open-api/route";
