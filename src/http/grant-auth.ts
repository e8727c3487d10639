/**
 * Authentication of an MCP request made with an OAuth access token (src/oauth/connector.ts). The
 * provider has checked the token (issued here, unexpired, unrevoked, for this resource) and hands
 * over the grant's props: the tenant and the SHA-256 hash of the API key given on the consent page.
 * The key must still be valid: revoking it (docs/deploy.md, "API keys") also ends every
 * connection made with it. Only the token app uses this middleware.
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "./app-env";
import { AUTH_CHALLENGE, resolveTenantOfHash } from "./auth";
import { ApiError, UNAVAILABLE_RETRY_AFTER_S } from "./errors";

export const GrantPropsSchema = z.object({ tenant: z.string().min(1), key_hash: z.string().regex(/^[0-9a-f]{64}$/) });

export type GrantProps = z.infer<typeof GrantPropsSchema>;

export const requireGrantTenant: MiddlewareHandler<AppEnv> = async (c, next) => {
  const props = GrantPropsSchema.safeParse(c.executionCtx.props);
  let tenantId: string | undefined;
  try {
    tenantId = props.success ? await resolveTenantOfHash(c.env, props.data.key_hash) : undefined;
  } catch (cause) {
    throw new ApiError("unavailable", "API keys cannot be checked right now; retry shortly", {
      cause,
      headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) },
    });
  }
  if (!props.success || tenantId !== props.data.tenant) {
    throw new ApiError("unauthorized", "the API key this connection was authorized with is revoked: connect again", {
      headers: { "WWW-Authenticate": `${AUTH_CHALLENGE}, error="invalid_token"` },
    });
  }
  c.set("tenantId", tenantId);
  await next();
};
