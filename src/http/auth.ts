/**
 * Bearer-key authentication. The tenant comes from the key alone; with the agent id from the path
 * it names the agent's Durable Object and scopes every row. Nothing in a request body can change it.
 *
 * A 401 says how to authenticate (a `WWW-Authenticate: Bearer` challenge, as Bearer-token HTTP
 * authentication defines it); a key store that cannot be
 * read (D1 down) is an outage, answered 503 with Retry-After, never a 401 (the key may be good) nor
 * a 500 (nothing is wrong with the request).
 */
import type { MiddlewareHandler } from "hono";
import { hashKey, tenantOfKey, tenantOfKeyHash } from "../storage/api-keys";
import { createDb } from "../storage/db";
import type { AppEnv } from "./app-env";
import { ApiError, UNAVAILABLE_RETRY_AFTER_S } from "./errors";

/** The tenant of the local development key (wrangler.local.toml's DEV_API_KEY). */
export const DEV_TENANT = "dev";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The challenge of every 401. An unknown key adds error="invalid_token": a client can tell a key that
 * was refused from a request that sent none.
 */
export const AUTH_CHALLENGE = 'Bearer realm="agent-memory"';

/** The key in an `Authorization: Bearer <key>` header, or undefined. */
export function bearerKey(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}

export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = bearerKey(c.req.header("Authorization"));
  if (!key) {
    throw new ApiError("unauthorized", "missing or malformed header: Authorization: Bearer <api key>", {
      headers: { "WWW-Authenticate": AUTH_CHALLENGE },
    });
  }
  let tenantId: string | undefined;
  try {
    tenantId = await resolveTenant(c.env, key);
  } catch (cause) {
    throw new ApiError("unavailable", "API keys cannot be checked right now; retry shortly", {
      cause,
      headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) },
    });
  }
  if (!tenantId) {
    throw new ApiError("unauthorized", "unknown or revoked API key", {
      headers: { "WWW-Authenticate": `${AUTH_CHALLENGE}, error="invalid_token"` },
    });
  }
  c.set("tenantId", tenantId);
  await next();
};

/** The tenant of an API key (the development key's, or a stored key's), or undefined. Throws when D1 cannot be read. */
export async function resolveTenant(env: Env, key: string): Promise<string | undefined> {
  if (env.DEV_API_KEY && (await sameSecret(key, env.DEV_API_KEY))) return DEV_TENANT;
  return tenantOfKey(createDb(env.DB), key);
}

/** The tenant of the key with this SHA-256 hash while the key is valid (the development key's too). Throws when D1 cannot be read. */
export async function resolveTenantOfHash(env: Env, keyHash: string): Promise<string | undefined> {
  if (env.DEV_API_KEY && (await hashKey(env.DEV_API_KEY)) === keyHash) return DEV_TENANT;
  return tenantOfKeyHash(createDb(env.DB), keyHash);
}

/** Constant-time comparison (of digests, so the lengths always match). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [da, db] = await Promise.all([hashKey(a), hashKey(b)]);
  return crypto.subtle.timingSafeEqual(encoder.encode(da), encoder.encode(db));
}
