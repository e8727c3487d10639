/**
 * Bearer-key authentication. The tenant comes from the key alone; with the agent id from the path
 * it names the agent's Durable Object and scopes every row. Nothing in a request body can change it.
 * The key's scope and agent-id prefix are checked per operation (scope-guard.ts).
 *
 * A 401 says how to authenticate (a `WWW-Authenticate: Bearer` challenge, as Bearer-token HTTP
 * authentication defines it); a key store that cannot be read (D1 down) is an outage, answered
 * 503 with Retry-After, never a 401 (the key may be good) nor a 500 (nothing is wrong with the
 * request). No answer and no log line holds the key.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { ApiError, UNAVAILABLE_RETRY_AFTER_S } from "./errors";
import { principalOfKey, type Defer, type Principal } from "./principal";

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

/** The request's waitUntil, or a plain background promise outside the Workers runtime (scripts). */
export function deferOf(c: Context<AppEnv>): Defer {
  return (work) => {
    const logged = work.catch((err: unknown) => console.warn("background work after the answer failed", err));
    try {
      c.executionCtx.waitUntil(logged);
    } catch {
      // no execution context: the promise runs on its own
    }
  };
}

/** Sets the request's principal and tenant. */
export function authenticated(c: Context<AppEnv>, principal: Principal): void {
  c.set("principal", principal);
  c.set("tenantId", principal.tenantId);
}

/** A key store that cannot be read is an outage (503), never a refusal of the key. */
export async function lookingUpKeys<T>(lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (cause) {
    throw new ApiError("unavailable", "API keys cannot be checked right now; retry shortly", {
      cause,
      headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) },
    });
  }
}

export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = bearerKey(c.req.header("Authorization"));
  if (!key) {
    throw new ApiError("unauthorized", "missing or malformed header: Authorization: Bearer <api key>", {
      headers: { "WWW-Authenticate": AUTH_CHALLENGE },
    });
  }
  const principal = await lookingUpKeys(() => principalOfKey(c.env, key, Date.now(), deferOf(c)));
  if (!principal) {
    throw new ApiError("unauthorized", "unknown, revoked or expired API key", {
      headers: { "WWW-Authenticate": `${AUTH_CHALLENGE}, error="invalid_token"` },
    });
  }
  authenticated(c, principal);
  await next();
};
