/**
 * The operator's API (docs/deploy.md, "The admin API"): `/v1/admin/…`, an app of its own beside
 * the public one (src/index.ts routes its paths here), so it is in no public document, no tool and
 * no SDK. Authenticated by the operator secret, never by a tenant key, and absent (404) unless the
 * secret is set (src/http/operator-auth.ts). The same middleware as the public API otherwise:
 * request id, nosniff, the local server's origin check, the route guard, the bounded body reader,
 * the one error mapping.
 *
 *   POST  /v1/admin/tenants/{tenant}/keys          create a key (its secret is in this answer only)
 *   GET   /v1/admin/tenants/{tenant}/keys          list the tenant's keys
 *   POST  /v1/admin/keys/revoke                    revoke by {prefix} or {key}
 *   POST  /v1/admin/keys/{prefix}/rotate           a new key; the old one works for {grace}
 *   GET   /v1/admin/tenants/{tenant}/quotas        defaults, overrides and what is in force
 *   PATCH /v1/admin/tenants/{tenant}/quotas        set or clear overrides
 *   GET   /v1/admin/tenants/{tenant}/usage         usage per day (the basis of a bill)
 *   GET   /v1/admin/tenants/{tenant}/audit         the audit log, newest first
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { requestId } from "hono/request-id";
import { MAX_BODY_BYTES } from "../config/limits";
import type { AppEnv } from "../http/app-env";
import { readBody } from "../http/body";
import { errorResponse, handleError } from "../http/errors";
import { localOriginOnly, noSniff } from "../http/local-origin";
import { operatorOnly } from "../http/operator-auth";
import { routeGuard } from "../http/route-guard";
import { validationHook } from "../http/validation-hook";
import { keyRoutes } from "./key-routes";
import { tenantRoutes } from "./tenant-routes";

export const ADMIN_PREFIX = "/v1/admin/";

export function isOperatorPath(pathname: string): boolean {
  return pathname === "/v1/admin" || pathname.startsWith(ADMIN_PREFIX);
}

export function createOperatorApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestId());
  app.use("*", noSniff);
  app.use("*", localOriginOnly);
  // Before the route guard: without the secret, no path here exists, whatever the method.
  app.use("*", operatorOnly);
  app.use(
    "*",
    routeGuard(() => app.routes),
  );
  app.use("*", readBody(MAX_BODY_BYTES));
  app.route("/", keyRoutes());
  app.route("/", tenantRoutes());
  app.notFound((c) => errorResponse(c, "not_found", "no such endpoint"));
  app.onError(handleError);
  return app;
}
