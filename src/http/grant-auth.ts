/**
 * Authentication of an MCP request made with an OAuth access token (src/oauth/connector.ts). The
 * provider has checked the token (issued here, unexpired, unrevoked, for this resource) and hands
 * over the grant's props: the tenant and the SHA-256 hash of the API key given on the consent page.
 * The key must still be valid, and its scope and agent-id prefix bound the token: revoking or
 * rotating it (docs/deploy.md, "API keys") also ends every connection made with it, within the
 * key cache's 30 s. Only the token app uses this middleware.
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "./app-env";
import { AUTH_CHALLENGE, authenticated, deferOf, lookingUpKeys } from "./auth";
import { ApiError } from "./errors";
import { principalOfHash } from "./principal";

export const GrantPropsSchema = z.object({ tenant: z.string().min(1), key_hash: z.string().regex(/^[0-9a-f]{64}$/) });

export type GrantProps = z.infer<typeof GrantPropsSchema>;

export const requireGrantTenant: MiddlewareHandler<AppEnv> = async (c, next) => {
  const props = GrantPropsSchema.safeParse(c.executionCtx.props);
  const principal = props.success
    ? await lookingUpKeys(() => principalOfHash(c.env, props.data.key_hash, Date.now(), deferOf(c)))
    : undefined;
  if (!props.success || principal === undefined || principal.tenantId !== props.data.tenant) {
    throw new ApiError("unauthorized", "the API key this connection was authorized with is revoked or expired: connect again", {
      headers: { "WWW-Authenticate": `${AUTH_CHALLENGE}, error="invalid_token"` },
    });
  }
  authenticated(c, principal);
  await next();
};
