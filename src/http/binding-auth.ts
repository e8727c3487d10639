/**
 * Authentication of a Workers RPC call (src/rpc): the service binding is the credential. Only a
 * Worker of the same account can hold a binding to this one, and the tenant is the binding's own
 * configuration (`props = { tenant = "…" }` on its `[[services]]` entry), which workerd hands to
 * the entrypoint as `ctx.props`; the calling Worker's code cannot change it. This middleware is
 * installed only on the RPC entrypoint's app, which no HTTP request reaches.
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

/** A tenant id: what `npm run key:create -- --tenant` accepts. */
const TenantIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/);

export const BindingPropsSchema = z.object({ tenant: TenantIdSchema });

export type BindingProps = z.infer<typeof BindingPropsSchema>;

/** The tenant a binding's props name, or undefined when they name none (or not validly). */
export function tenantOfProps(props: unknown): string | undefined {
  const parsed = BindingPropsSchema.safeParse(props);
  return parsed.success ? parsed.data.tenant : undefined;
}

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
  const tenantId = tenantOfProps(c.executionCtx.props);
  if (tenantId === undefined) {
    throw new ApiError(
      "unauthorized",
      'the service binding names no tenant: give its [[services]] entry props = { tenant = "<tenant id>" } (1–64 of A-Za-z0-9_.-)',
    );
  }
  if (!bindingMayName(tenantId, c.env.BINDING_TENANTS)) {
    throw new ApiError("unauthorized", `service bindings may not name tenant ${tenantId} (BINDING_TENANTS of this deployment)`);
  }
  c.set("tenantId", tenantId);
  await next();
};
