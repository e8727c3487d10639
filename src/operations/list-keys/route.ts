/** listKeys (docs/design.md, "Tenants and keys"): the tenant's API keys, as their prefixes and properties; never a secret. */
import { createRoute, z } from "@hono/zod-openapi";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { EmptyQuerySchema, errorResponses } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { keyViewer, KeyViewSchema } from "../../surfaces/key-view";
import { listKeys as tenantKeys } from "../../service/key-lifecycle";

const KeyListSchema = z.object({ keys: z.array(KeyViewSchema) }).openapi("ApiKeyList");

const route = createRoute({
  method: "get",
  path: "/v1/keys",
  operationId: "listKeys",
  tags: ["keys"],
  summary: "List the tenant's API keys",
  description:
    "The keys of the caller's tenant, oldest first, each by its public prefix with its label, scope, agent-id prefix, status, creation, last use (to the hour), expiry and revocation. No secret is ever shown. A key of scope admin sees every key within its own agent-id prefix; any other key sees only itself.",
  request: { query: EmptyQuerySchema },
  responses: {
    200: { description: "The keys", content: { "application/json": { schema: KeyListSchema } } },
    ...errorResponses,
  },
});

export const listKeys: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const { keys } = await memory.listKeys();
console.log(keys.map((k) => \`\${k.prefix} \${k.scopes} \${k.status}\`));`,
    },
    tool: { reason: "key management is for the tenant's operators, not for a model" },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const keys = await tenantKeys(c.env.DB, c.get("tenantId"), Date.now(), keyViewer(c));
      return c.json({ keys }, 200);
    }),
};
