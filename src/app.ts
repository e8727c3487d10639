/**
 * The HTTP API: Hono with zod-openapi. Middleware order: request id, body limit, auth (for the
 * agent routes), then each route validates its own input with its zod schema.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { MAX_BODY_BYTES } from "./config/limits";
import { registerRoutes } from "./routes";
import type { AppEnv } from "./http/app-env";
import { requireApiKey } from "./http/auth";
import { errorBody, handleError } from "./http/errors";
import { validationHook } from "./http/validation-hook";

const IMPORT_PATH = /^\/v1\/agents\/[^/]+\/import$/;

export function createApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestId());
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json(errorBody("payload_too_large", `the request body exceeds ${MAX_BODY_BYTES} bytes`), 413),
  });
  // An import streams its own body under its own limit (src/routes/transfer.ts): never buffered here.
  app.use("/v1/*", (c, next) => (c.req.method === "POST" && IMPORT_PATH.test(c.req.path) ? next() : limit(c, next)));
  app.use("/v1/agents/*", requireApiKey);
  registerRoutes(app);
  app.doc31("/v1/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Agent Memory API",
      version: "0.1.0",
      description: "A per-agent memory network that forgets gracefully. Authenticate with `Authorization: Bearer <key>`.",
    },
  });
  app.notFound((c) => c.json(errorBody("not_found", "no such endpoint"), 404));
  app.onError(handleError);
  return app;
}
