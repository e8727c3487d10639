/**
 * Authentication of a Workers RPC call (src/rpc): the service binding is the credential. Only a
 * Worker of the same account can hold a binding to this one, and the tenant is the binding's own
 * configuration (`props = { tenant = "…" }` on its `[[services]]` entry), which workerd hands to
 * the entrypoint as `ctx.props`; the calling Worker's code cannot change it. Props may also name
 * one of the tenant's keys by its public prefix (`props = { tenant = "acme", key = "amk_AbCd1234" }`):
 * the calls then have that key's scope and agent-id prefix, and stop when it is revoked or expires
 * (within the key cache's 30 s). Without a key the binding has every right over its tenant. This
 * middleware is installed only on the RPC entrypoint's app, which no HTTP request reaches.
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { KEY_PREFIX_PATTERN } from "../storage/api-keys";
import { TenantIdSchema } from "../vocabulary/identity";
import type { AppEnv } from "./app-env";
import { authenticated, lookingUpKeys } from "./auth";
import { ApiError } from "./errors";
import { principalOfPrefix, tenantPrincipal } from "./principal";

export const BindingPropsSchema = z.object({ tenant: TenantIdSchema, key: z.string().regex(KEY_PREFIX_PATTERN).optional() });

export type BindingProps = z.infer<typeof BindingPropsSchema>;

/**
 * Whether a binding may name `tenant`: BINDING_TENANTS lists the tenants bindings may name (empty:
 * any). A binding is configured by whoever deploys the calling Worker, so on an account where
 * others deploy Workers, any of them could name any tenant: the list is how a deployment says which.
 */
export function bindingMayName(tenant: string, allowed: string | undefined): boolean {
  const list = (allowed ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  return list.length === 0 || list.includes(tenant);
}

export const requireBindingTenant: MiddlewareHandler<AppEnv> = async (c, next) => {
  const props = BindingPropsSchema.safeParse(c.executionCtx.props);
  if (!props.success) {
    throw new ApiError(
      "unauthorized",
      'the service binding names no tenant: give its [[services]] entry props = { tenant = "<tenant id>" } (1–64 of A-Za-z0-9_.-), and optionally key = "<a key prefix of that tenant>"',
    );
  }
  const { tenant, key } = props.data;
  if (!bindingMayName(tenant, c.env.BINDING_TENANTS)) {
    throw new ApiError("unauthorized", `service bindings may not name tenant ${tenant} (BINDING_TENANTS of this deployment)`);
  }
  const principal = await lookingUpKeys(() =>
    key === undefined ? tenantPrincipal(c.env, tenant, "binding", Date.now()) : principalOfPrefix(c.env, tenant, key, Date.now()),
  );
  if (principal === undefined) {
    throw new ApiError("unauthorized", `the key the service binding names (${key ?? ""}) is not a valid key of tenant "${tenant}"`);
  }
  authenticated(c, principal);
  await next();
};
