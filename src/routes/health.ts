import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { checkDatabase } from "../agent/service";
import { EmptyQuerySchema, errorsOf } from "../api/common";
import type { AppEnv } from "../http/app-env";
import { ApiError, UNAVAILABLE_RETRY_AFTER_S } from "../http/errors";

const HealthSchema = z
  .object({
    status: z.literal("ok"),
    model_provider: z.string(),
    vector_provider: z.string(),
    database: z.literal("ok"),
  })
  .openapi("Health");

export const healthRoute = createRoute({
  method: "get",
  path: "/v1/health",
  operationId: "getHealth",
  security: [],
  tags: ["service"],
  summary: "Liveness, with the configured providers and a database round trip",
  request: { query: EmptyQuerySchema },
  responses: {
    200: { description: "Healthy", content: { "application/json": { schema: HealthSchema } } },
    ...errorsOf({ auth: false }),
  },
});

export function registerHealth(app: OpenAPIHono<AppEnv>): void {
  app.openapi(healthRoute, async (c) => {
    try {
      await checkDatabase(c.env);
    } catch (cause) {
      // An outage, not a fault of the request: 503, so monitors and clients know to retry.
      throw new ApiError("unavailable", "the database cannot be reached", {
        cause,
        headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) },
      });
    }
    return c.json(
      { status: "ok" as const, model_provider: c.env.MODEL_PROVIDER, vector_provider: c.env.VECTOR_PROVIDER, database: "ok" as const },
      200,
    );
  });
}
