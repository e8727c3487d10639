/**
 * The HTTP API: Hono with zod-openapi. Middleware order, and why:
 *
 * 1. request id, `X-Content-Type-Options: nosniff` on every answer, and on the local server
 *    (the development key configured) the refusal of any request not addressed to this machine
 *    (DNS rebinding: src/http/local-origin.ts);
 * 2. the route guard: 404 for a path the API does not serve, 405 with Allow for a method its path
 *    does not take, OPTIONS answered (same-origin only, no CORS grant), all before authentication
 *    and before any body is read;
 * 3. auth, for the agent routes: the key is checked before a body is buffered;
 * 4. the body reader: bounded (413), none on GET/HEAD/DELETE, JSON in UTF-8 (except an import's
 *    body, which its route reads as a stream under its own bound);
 * 5. each route validates its params, query, headers and body with its zod schema.
 *
 * Every error answer, hono's own included, is the envelope built in src/http/errors.ts.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { MAX_BODY_BYTES } from "./config/limits";
import { registerRoutes } from "./routes";
import type { AppEnv } from "./http/app-env";
import { requireApiKey } from "./http/auth";
import { readBody } from "./http/body";
import { errorResponse, handleError } from "./http/errors";
import { isLoopbackHost, localOriginOnly, noSniff } from "./http/local-origin";
import { routeGuard } from "./http/route-guard";
import { openApiRoute } from "./api/integration";
import { validationHook } from "./http/validation-hook";

const IMPORT_PATH = /^\/v1\/agents\/[^/]+\/import$/;

/**
 * `authenticate` names the tenant of an agent route: the Bearer key by default; the Workers RPC
 * entrypoint's own app takes it from the service binding's configuration (src/rpc).
 */
export function createApp(options: { authenticate?: MiddlewareHandler<AppEnv> } = {}): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestId());
  app.use("*", noSniff);
  app.use("*", localOriginOnly);
  app.use(
    "*",
    routeGuard(() => app.routes),
  );
  app.use("/v1/agents/*", options.authenticate ?? requireApiKey);
  // An import streams its own body under its own limit (src/routes/transfer.ts): never buffered here.
  const bodies = readBody(MAX_BODY_BYTES);
  app.use("/v1/*", (c, next) => (c.req.method === "POST" && IMPORT_PATH.test(c.req.path) ? next() : bodies(c, next)));
  registerRoutes(app);
  app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME, {
    type: "http",
    scheme: "bearer",
    description: "An API key (`npm run key:create`; locally the development key `dev-key-local-only`).",
  });
  // The servers entry: the local server's own origin (checked to be this machine); a deployment's
  // document names its server relatively ("/": the host it was fetched from), never echoing a
  // Host header into a document a client may trust.
  app.openapi(openApiRoute, (c) => {
    const url = new URL(c.req.url);
    const server = c.env.DEV_API_KEY && isLoopbackHost(url.hostname) ? url.origin : "/";
    return c.json(app.getOpenAPI31Document(openApiConfig(server)) as unknown as Record<string, unknown>, 200);
  });
  // The route guard answers unknown paths first; this only backs it up.
  app.notFound((c) => errorResponse(c, "not_found", "no such endpoint"));
  app.onError(handleError);
  return app;
}

const BEARER_SCHEME = "bearerAuth";

const TAGS = [
  { name: "memory", description: "Remember conversations, recall and search memories, read the network." },
  { name: "context", description: "A context block for a prompt, the profile, episodes." },
  { name: "config", description: "The agent's parameters and compression cycles." },
  { name: "tasks", description: "Queued writes and their results." },
  { name: "agents", description: "The agents of a tenant; deleting one." },
  { name: "integration", description: "Function-calling tools and the MCP server over the same operations." },
  { name: "service", description: "Liveness." },
];

/** The document's top level (paths come from the routes); `server` is its one server's URL. */
export function openApiConfig(server: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Agent Memory API",
      version: "0.1.0",
      description:
        "A per-agent memory network that forgets gracefully. Authenticate with `Authorization: Bearer <key>`. Every error is `{error: {code, message, details?}}` with a code from a closed list (the `Error` schema). Writes take an `Idempotency-Key`; retry 429 and 503 after `Retry-After` seconds. A path answers 405 with `Allow` to a method it does not take, and `OPTIONS` with 204 and `Allow` (no CORS grant).",
    },
    servers: [{ url: server }],
    security: [{ [BEARER_SCHEME]: [] }],
    tags: TAGS,
  };
}
