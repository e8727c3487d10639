/**
 * Bearer-key authentication. The tenant comes from the key alone; with the agent id from the path
 * it names the agent's Durable Object and scopes every row. Nothing in a request body can change it.
 */
import type { MiddlewareHandler } from "hono";
import { hashKey, tenantOfKey } from "../storage/api-keys";
import { createDb } from "../storage/db";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

/** The tenant of the local development key (wrangler.local.toml's DEV_API_KEY). */
export const DEV_TENANT = "dev";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("Authorization");
  const key = header ? BEARER.exec(header)?.[1] : undefined;
  if (!key) throw new ApiError(401, "unauthorized", "missing or malformed header: Authorization: Bearer <api key>");
  const tenantId = await resolveTenant(c.env, key);
  if (!tenantId) throw new ApiError(401, "unauthorized", "unknown or revoked API key");
  c.set("tenantId", tenantId);
  await next();
};

async function resolveTenant(env: Env, key: string): Promise<string | undefined> {
  if (env.DEV_API_KEY && (await sameSecret(key, env.DEV_API_KEY))) return DEV_TENANT;
  return tenantOfKey(createDb(env.DB), key);
}

/** Constant-time comparison (of digests, so the lengths always match). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [da, db] = await Promise.all([hashKey(a), hashKey(b)]);
  return crypto.subtle.timingSafeEqual(encoder.encode(da), encoder.encode(db));
}
