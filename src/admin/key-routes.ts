/**
 * The operator's key routes (operator-app.ts): create, list, revoke, rotate, for any tenant. The
 * lifecycle itself is src/service/key-lifecycle.ts, which the CLI runs too. A key's secret is in
 * the answer of create and rotate only; revocation is by prefix or by the key itself (in the body,
 * never in a URL, which logs keep).
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { forgetKey } from "../http/principal";
import { validationHook } from "../http/validation-hook";
import { createKey, listKeys, NewKeySchema, revokeKey, rotateKey, RotationSchema, type Actor } from "../service/key-lifecycle";
import { TenantIdSchema } from "../vocabulary/identity";

const TenantPath = z.object({ tenant: TenantIdSchema });
const PrefixPath = z.object({ prefix: z.string().regex(/^amk_[A-Za-z0-9]{8}$/, "a key prefix: amk_ and 8 letters or digits") });
const RevokeBody = z.union([
  z.object({ prefix: PrefixPath.shape.prefix }).strict(),
  z.object({ key: z.string().min(1).max(256) }).strict(),
]);

const json = <S extends z.ZodType>(schema: S) => ({ content: { "application/json": { schema } }, required: true });
const ok = { description: "ok" };

/** The operator, as the audit log names it. */
export function operatorActor(c: Context<AppEnv>): Actor {
  return { actor: "operator", requestId: c.get("requestId") };
}

const create = createRoute({
  method: "post",
  path: "/v1/admin/tenants/{tenant}/keys",
  request: { params: TenantPath, body: json(NewKeySchema) },
  responses: { 201: ok },
});
const list = createRoute({
  method: "get",
  path: "/v1/admin/tenants/{tenant}/keys",
  request: { params: TenantPath },
  responses: { 200: ok },
});
const revoke = createRoute({ method: "post", path: "/v1/admin/keys/revoke", request: { body: json(RevokeBody) }, responses: { 200: ok } });
const rotate = createRoute({
  method: "post",
  path: "/v1/admin/keys/{prefix}/rotate",
  request: { params: PrefixPath, body: json(RotationSchema) },
  responses: { 201: ok },
});

export function keyRoutes(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(create, async (c) => {
      const created = await createKey(c.env.DB, c.req.valid("param").tenant, c.req.valid("json"), operatorActor(c), Date.now());
      return c.json({ key: created.key, ...created.view }, 201);
    })
    .openapi(list, async (c) => c.json({ keys: await listKeys(c.env.DB, c.req.valid("param").tenant, Date.now()) }, 200))
    .openapi(revoke, async (c) => {
      const changed = await revokeKey(c.env.DB, c.req.valid("json"), operatorActor(c), Date.now());
      if (!changed) throw new ApiError("not_found", "no such key");
      forgetKey(changed.keyHash, changed.view.prefix);
      return c.json({ revoked: true, key: changed.view }, 200);
    })
    .openapi(rotate, async (c) => {
      const { prefix } = c.req.valid("param");
      const { grace, expires_in } = c.req.valid("json");
      const rotated = await rotateKey(c.env.DB, prefix, grace, operatorActor(c), Date.now(), expires_in);
      if (!rotated) throw new ApiError("not_found", `no valid key ${prefix}`);
      forgetKey(rotated.old.keyHash, rotated.old.view.prefix);
      return c.json({ key: rotated.created.key, ...rotated.created.view, old: rotated.old.view }, 201);
    });
}
