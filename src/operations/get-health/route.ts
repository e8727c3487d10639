/** getHealth: liveness of the service: the database, and with ?deep=1 every dependency. */
import { createRoute, z } from "@hono/zod-openapi";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { checkDatabase, DeepHealthSchema, deepHealth } from "../../service/health-check";
import { ErrorSchema, errorsOf, RETRY_AFTER } from "../../surfaces/common-schemas";
import { requireApiKey } from "../../http/auth";
import { RATE_LIMIT_RETRY_AFTER_S, withinRate } from "../../http/rate-limit";
import { ApiError, UNAVAILABLE_RETRY_AFTER_S } from "../../http/errors";

const HealthSchema = z
  .object({
    status: z.literal("ok"),
    model_provider: z.string(),
    vector_provider: z.string(),
    database: z.literal("ok"),
  })
  .openapi("Health");

const DeepHealthView = DeepHealthSchema.openapi("DeepHealth");

// Not strict: monitors often add a cache-busting parameter to a health URL.
const HealthQuerySchema = z.object({
  deep: z.enum(["0", "1"]).optional().openapi({ description: "1: check every dependency (costs model calls; needs an API key)." }),
});

/** No key, or one (deep=1 needs it). */
const OPTIONAL_KEY: Record<string, string[]>[] = [{}, { bearerAuth: [] }];

/** The shared error answers but those health documents itself. */
function errorsWithout(...statuses: number[]) {
  const all: Record<string, unknown> = errorsOf();
  return Object.fromEntries(Object.entries(all).filter(([status]) => !statuses.includes(Number(status)))) as ReturnType<typeof errorsOf>;
}

const route = createRoute({
  method: "get",
  path: "/v1/health",
  operationId: "getHealth",
  security: OPTIONAL_KEY,
  tags: ["service"],
  summary: "Liveness, with the configured providers and a database round trip; ?deep=1 checks every dependency",
  description:
    "Without `deep`: one round trip to the primary database, no key needed. With `deep=1` (an API key is required, any tenant's; at most 3 a minute per tenant, then 429): one embedding, one vector query per Vectorize index on an empty canary namespace, one small-model call and a round trip to every D1 shard; 503 when a check fails or no shard or index takes new agents. Full shards and indexes are listed under `warnings`.",
  request: { query: HealthQuerySchema },
  responses: {
    200: { description: "Healthy", content: { "application/json": { schema: z.union([HealthSchema, DeepHealthView]) } } },
    ...errorsWithout(401, 429, 503),
    401: { description: "deep=1 without a valid API key", content: { "application/json": { schema: ErrorSchema } } },
    429: {
      description: "deep=1 asked more than 3 times a minute for one tenant (`rate_limited`): retry after `Retry-After` seconds",
      headers: RETRY_AFTER,
      content: { "application/json": { schema: ErrorSchema } },
    },
    503: {
      description:
        "The database cannot be reached (an error, with Retry-After), or with deep=1 a dependency failed or no room for new agents",
      headers: RETRY_AFTER,
      content: { "application/json": { schema: z.union([DeepHealthView, ErrorSchema]) } },
    },
  },
});

export const getHealth: Endpoint = {
  operation: defineOperation(route, {
    scope: "public",
    sdk: {
      example: `const health = await memory.getHealth();
console.log(health.status, health.model_provider);`,
    },
    queryArgs: { deep: z.enum(["0", "1"]).optional().describe("1: check every dependency (needs an API key).") },
    tool: { reason: "service liveness, not memory" },
  }),
  routes: () => {
    const app = subApp();
    // The deep check spends model calls: only key holders may ask for it.
    app.use("/v1/health", async (c, next) => (c.req.query("deep") === "1" ? requireApiKey(c, next) : next()));
    return app.openapi(route, async (c) => {
      if (c.req.valid("query").deep === "1") {
        // Each check spends a model call and an embedding of the account's budget, which every tenant shares.
        if (!(await withinRate(c.env.DEEP_HEALTH_CHECKS, c.get("tenantId")))) {
          throw new ApiError("rate_limited", "the deep health check was asked too often for this tenant: retry in a minute", {
            headers: { "Retry-After": String(RATE_LIMIT_RETRY_AFTER_S) },
          });
        }
        const health = await deepHealth(c.env);
        return c.json(health, health.status === "ok" ? 200 : 503);
      }
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
  },
};
