/**
 * getOpenApi: the OpenAPI 3.1 document of the API (GET /v1/openapi.json): its top level here, its
 * paths and schemas from the routes of every operation, read from the root app it describes.
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { EmptyQuerySchema, errorsOf } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { AREAS } from "../../surfaces/areas";
import type { AppEnv } from "../../http/app-env";
import { isLoopbackHost } from "../../http/local-origin";

const JsonObjectSchema = z.record(z.string(), z.unknown());

const route = createRoute({
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

const BEARER_SCHEME = "bearerAuth";

/** The document's top level (paths come from the routes); `server` is its one server's URL. */
export function openApiConfig(server: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Agent Memory API",
      version: "0.1.0",
      description:
        "A per-agent memory network that forgets gracefully. Authenticate with `Authorization: Bearer <key>`; a key's scope (read, write or admin) and agent-id prefix bound what it may do (403 `forbidden` otherwise), and the tenant's quotas answer 429 `quota_exceeded`. Every error is `{error: {code, message, details?}}` with a code from a closed list (the `Error` schema). Writes take an `Idempotency-Key`; retry 429 and 503 after `Retry-After` seconds. A path answers 405 with `Allow` to a method it does not take, and `OPTIONS` with 204 and `Allow` (no CORS grant).",
    },
    servers: [{ url: server }],
    security: [{ [BEARER_SCHEME]: [] }],
    tags: AREAS.map((area) => ({ ...area })),
  };
}

export const getOpenApi: Endpoint = {
  operation: defineOperation(route, {
    scope: "public",
    sdk: {
      example: `const document = await memory.getOpenApi();
console.log(document);`,
    },
    tool: { reason: "describes the API, not the memory" },
  }),
  routes: (root: OpenAPIHono<AppEnv>) => {
    const app = subApp();
    app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME, {
      type: "http",
      scheme: "bearer",
      description: "An API key (`npm run key:create`; locally the development key `dev-key-local-only`).",
    });
    // The servers entry: the local server's own origin (checked to be this machine); a deployment's
    // document names its server relatively ("/": the host it was fetched from), never echoing a
    // Host header into a document a client may trust.
    return app.openapi(route, (c) => {
      const url = new URL(c.req.url);
      const server = c.env.DEV_API_KEY && isLoopbackHost(url.hostname) ? url.origin : "/";
      return c.json(root.getOpenAPI31Document(openApiConfig(server)) as unknown as Record<string, unknown>, 200);
    });
  },
};
