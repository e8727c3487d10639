import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { checkDatabase } from "../agent/service";
import type { AppEnv } from "../http/app-env";

const HealthSchema = z
  .object({
    status: z.literal("ok"),
    model_provider: z.string(),
    vector_provider: z.string(),
    database: z.literal("ok"),
  })
  .openapi("Health");

const route = createRoute({
  method: "get",
  path: "/v1/health",
  tags: ["service"],
  summary: "Liveness, with the configured providers and a database round trip",
  responses: { 200: { description: "Healthy", content: { "application/json": { schema: HealthSchema } } } },
});

export function registerHealth(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    await checkDatabase(c.env);
    return c.json(
      { status: "ok" as const, model_provider: c.env.MODEL_PROVIDER, vector_provider: c.env.VECTOR_PROVIDER, database: "ok" as const },
      200,
    );
  });
}
