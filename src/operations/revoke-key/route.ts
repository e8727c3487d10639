/** revokeKey (docs/design.md, "Tenants and keys"): a tenant revokes one of its own keys, by its public prefix. */
import { createRoute, z } from "@hono/zod-openapi";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { EmptyQuerySchema, errorsOf } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { auditActor, keyViewer, KeyPrefixSchema, KeyViewSchema, keyChanged } from "../../surfaces/key-view";
import { revokeKey as revoke } from "../../service/key-lifecycle";
import { ApiError } from "../../http/errors";

const route = createRoute({
  method: "delete",
  path: "/v1/keys/{prefix}",
  operationId: "revokeKey",
  tags: ["keys"],
  summary: "Revoke one of the tenant's API keys",
  description:
    "Revokes the key with this public prefix (as `GET /v1/keys` lists it): it stops working on every surface (REST, tools, MCP and the OAuth connections made with it, Workers RPC bindings that name it) within 30 seconds. Needs a key of scope admin, and the key must be within its agent-id prefix; revoking a revoked key answers it as it stands. The revocation is in the audit log.",
  request: { params: z.object({ prefix: KeyPrefixSchema }), query: EmptyQuerySchema },
  responses: {
    200: {
      description: "Revoked",
      content: { "application/json": { schema: z.object({ revoked: z.literal(true), key: KeyViewSchema }).openapi("RevokedKey") } },
    },
    ...errorsOf({ notFound: true }),
  },
});

export const revokeKey: Endpoint = {
  operation: defineOperation(route, {
    scope: "admin",
    sdk: {
      example: `const { key } = await memory.revokeKey({ prefix: "amk_AbCd1234" });
console.log(key.status); // "revoked"`,
    },
    tool: { reason: "key management is for the tenant's operators, not for a model" },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { prefix } = c.req.valid("param");
      const changed = await revoke(c.env.DB, { prefix }, auditActor(c), Date.now(), keyViewer(c));
      if (!changed) throw new ApiError("not_found", `no key ${prefix} of this tenant`);
      keyChanged(changed);
      return c.json({ revoked: true as const, key: changed.view }, 200);
    }),
};
