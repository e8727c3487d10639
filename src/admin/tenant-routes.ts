/**
 * The operator's tenant routes (operator-app.ts): a tenant's quotas (read, override), where its
 * agents are created (its jurisdiction, set while it has none; its region), its usage per day and
 * its audit log.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { QuotaOverridesSchema } from "../config/quotas";
import type { AppEnv } from "../http/app-env";
import { forgetTenant } from "../http/principal";
import { validationHook } from "../http/validation-hook";
import { auditPage } from "../service/audit";
import { JurisdictionLockedError, setTenantPlacement, tenantPlacement, TenantPlacementSchema } from "../service/tenant-placement";
import { setTenantQuotas, tenantQuotas } from "../service/tenant-quotas";
import { UsageQuerySchema, UsageRangeError, usageReport } from "../service/usage-report";
import { ApiError } from "../http/errors";
import { TenantIdSchema } from "../vocabulary/identity";
import { operatorActor } from "./key-routes";

const TenantPath = z.object({ tenant: TenantIdSchema });
const ok = { description: "ok" };

const AUDIT_PAGE = 100;
const MAX_AUDIT_PAGE = 1_000;
const AuditQuery = z
  .object({
    before: z
      .string()
      .regex(/^[1-9][0-9]{0,15}$/, "an entry id (next_before of the previous page)")
      .transform(Number)
      .optional(),
    limit: z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/, `entries per page, 1–${MAX_AUDIT_PAGE}`)
      .transform(Number)
      .refine((n) => n <= MAX_AUDIT_PAGE, `at most ${MAX_AUDIT_PAGE}`)
      .optional(),
  })
  .strict();

const getQuotas = createRoute({
  method: "get",
  path: "/v1/admin/tenants/{tenant}/quotas",
  request: { params: TenantPath },
  responses: { 200: ok },
});
const patchQuotas = createRoute({
  method: "patch",
  path: "/v1/admin/tenants/{tenant}/quotas",
  request: { params: TenantPath, body: { content: { "application/json": { schema: QuotaOverridesSchema } }, required: true } },
  responses: { 200: ok },
});
const getPlacement = createRoute({
  method: "get",
  path: "/v1/admin/tenants/{tenant}/placement",
  request: { params: TenantPath },
  responses: { 200: ok },
});
const putPlacement = createRoute({
  method: "put",
  path: "/v1/admin/tenants/{tenant}/placement",
  request: { params: TenantPath, body: { content: { "application/json": { schema: TenantPlacementSchema } }, required: true } },
  responses: { 200: ok },
});
const usage = createRoute({
  method: "get",
  path: "/v1/admin/tenants/{tenant}/usage",
  request: { params: TenantPath, query: UsageQuerySchema },
  responses: { 200: ok },
});
const audit = createRoute({
  method: "get",
  path: "/v1/admin/tenants/{tenant}/audit",
  request: { params: TenantPath, query: AuditQuery },
  responses: { 200: ok },
});

export function tenantRoutes(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(getQuotas, async (c) => c.json(await tenantQuotas(c.env, c.req.valid("param").tenant), 200))
    .openapi(patchQuotas, async (c) => {
      const { tenant } = c.req.valid("param");
      const quotas = await setTenantQuotas(c.env, tenant, c.req.valid("json"), operatorActor(c), Date.now());
      forgetTenant(tenant);
      return c.json(quotas, 200);
    })
    .openapi(getPlacement, async (c) => c.json(await tenantPlacement(c.env.DB, c.req.valid("param").tenant), 200))
    .openapi(putPlacement, async (c) => {
      const { tenant } = c.req.valid("param");
      try {
        const placement = await setTenantPlacement(c.env.DB, tenant, c.req.valid("json"), operatorActor(c), Date.now());
        forgetTenant(tenant);
        return c.json(placement, 200);
      } catch (err) {
        if (err instanceof JurisdictionLockedError) throw new ApiError("conflict", err.message);
        throw err;
      }
    })
    .openapi(usage, async (c) => {
      try {
        return c.json(await usageReport(c.env.DB, c.req.valid("param").tenant, c.req.valid("query"), Date.now()), 200);
      } catch (err) {
        if (err instanceof UsageRangeError) throw new ApiError("validation_failed", err.message);
        throw err;
      }
    })
    .openapi(audit, async (c) => {
      const { before, limit = AUDIT_PAGE } = c.req.valid("query");
      return c.json(await auditPage(c.env.DB, c.req.valid("param").tenant, before, limit), 200);
    });
}
