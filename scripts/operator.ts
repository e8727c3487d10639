/**
 * The operator's CLI (docs/deploy.md, "API keys", "Quotas", "Usage"): the admin API's operations
 * against the D1 database directly, the remote one by default, the local server's with --local.
 * It runs the same service code as the admin API (src/service/), through wrangler
 * (scripts/wrangler-d1.ts), so it needs no running server and no operator secret, only the
 * wrangler login that deploys.
 *
 *   npm run key:create -- --tenant T [--scopes read|write|admin] [--agent-prefix P] [--expires-in 30d] [--label L] [--local]
 *   npm run key:list   -- --tenant T [--local]
 *   npm run key:revoke -- --key K | --prefix P [--local]
 *   npm run key:rotate -- --prefix P --grace 1h [--expires-in 30d] [--local]
 *   npm run quota:show -- --tenant T [--local]
 *   npm run quota:set  -- --tenant T [--agents N] [--nodes-per-agent N] [--messages-per-day N] [--requests-per-minute N] [--model-weight N] [--local]
 *                         (a value of "default" clears the override)
 *   npm run placement:show -- --tenant T [--local]
 *   npm run placement:set  -- --tenant T [--jurisdiction eu|none] [--region wnam|enam|weur|eeur|apac|oc|none] [--local]
 *                         (the jurisdiction only while the tenant has no agent: docs/deploy.md, "Near the user")
 *   npm run usage      -- --tenant T [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--local]
 *   npm run audit      -- --tenant T [--limit N] [--local]
 *
 * A change made here reaches a running Worker's key cache within 30 s (docs/deploy.md).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { QuotaOverridesSchema, quotaDefaults, type QuotaEnv } from "../src/config/quotas";
import { auditPage } from "../src/service/audit";
import { createKey, listKeys, NewKeySchema, revokeKey, rotateKey, RotationSchema, type Actor } from "../src/service/key-lifecycle";
import { JurisdictionLockedError, setTenantPlacement, tenantPlacement, TenantPlacementSchema } from "../src/service/tenant-placement";
import { setTenantQuotas, tenantQuotas } from "../src/service/tenant-quotas";
import { UsageQuerySchema, usageReport } from "../src/service/usage-report";
import { TenantIdSchema } from "../src/vocabulary/identity";
import { ROOT } from "./local-server.mjs";
import { WranglerD1 } from "./wrangler-d1";

const COMMANDS = [
  "key:create",
  "key:list",
  "key:revoke",
  "key:rotate",
  "quota:show",
  "quota:set",
  "placement:show",
  "placement:set",
  "usage",
  "audit",
] as const;
type Command = (typeof COMMANDS)[number];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tenant: { type: "string" },
    scopes: { type: "string" },
    "agent-prefix": { type: "string" },
    "expires-in": { type: "string" },
    label: { type: "string" },
    key: { type: "string" },
    prefix: { type: "string" },
    grace: { type: "string" },
    agents: { type: "string" },
    "nodes-per-agent": { type: "string" },
    "messages-per-day": { type: "string" },
    "requests-per-minute": { type: "string" },
    "model-weight": { type: "string" },
    jurisdiction: { type: "string" },
    region: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    limit: { type: "string" },
    local: { type: "boolean", default: false },
    // With --local: another local state directory than `npm run dev`'s (the end-to-end tests').
    "persist-to": { type: "string" },
  },
});

/** The QUOTA_* vars of a wrangler configuration (`NAME = "value"` lines). */
function quotaVars(toml: string): Record<string, string> {
  return Object.fromEntries([...toml.matchAll(/^(QUOTA_[A-Z_]+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1] ?? "", m[2] ?? ""]));
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** A zod parse whose failure is one line per issue, naming the option. */
function parsed<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  fail(result.error.issues.map((i) => `--${i.path.map(String).join(".").replaceAll("_", "-") || "arguments"}: ${i.message}`).join("\n"));
}

function tenantOption(): string {
  if (values.tenant === undefined) fail("--tenant <id> is required");
  return parsed(TenantIdSchema, values.tenant);
}

/** Drops options that were not given, so the schemas see only what the operator wrote. */
function given<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const command = positionals[0] as Command | undefined;
if (command === undefined || !COMMANDS.includes(command))
  fail(`usage: tsx scripts/operator.ts <${COMMANDS.join("|")}> [options] (see the file's header)`);

const d1 = new WranglerD1({ local: values.local, persistTo: values["persist-to"] }).asD1();
const by: Actor = { actor: "operator", requestId: `cli-${crypto.randomUUID()}` };
const now = Date.now();
// The quota defaults are the deployment's vars: read from its configuration file.
const env: Pick<Env, "DB"> & QuotaEnv = {
  DB: d1,
  ...quotaVars(readFileSync(path.join(ROOT, values.local ? "wrangler.local.toml" : "wrangler.toml"), "utf8")),
};
const show = (value: unknown) => console.log(JSON.stringify(value, null, 2));

switch (command) {
  case "key:create": {
    const tenant = tenantOption();
    const spec = parsed(
      NewKeySchema,
      given({ scopes: values.scopes, agent_prefix: values["agent-prefix"], expires_in: values["expires-in"], label: values.label }),
    );
    const created = await createKey(d1, tenant, spec, by, now);
    console.log(`API key for tenant "${tenant}" (shown once, store it now):\n\n  ${created.key}\n`);
    show(created.view);
    break;
  }
  case "key:list":
    show(await listKeys(d1, tenantOption(), now));
    break;
  case "key:revoke": {
    if ((values.key === undefined) === (values.prefix === undefined)) fail("give one of --key <key> or --prefix <prefix>");
    const target = values.key !== undefined ? { key: values.key } : { prefix: values.prefix ?? "" };
    const changed = await revokeKey(d1, target, by, now);
    if (!changed) fail("no such key");
    show(changed.view);
    break;
  }
  case "key:rotate": {
    if (values.prefix === undefined) fail("--prefix <prefix> is required");
    const { grace, expires_in } = parsed(RotationSchema, given({ grace: values.grace, expires_in: values["expires-in"] }));
    const rotated = await rotateKey(d1, values.prefix, grace, by, now, expires_in);
    if (!rotated) fail(`no valid key ${values.prefix}`);
    console.log(`New API key (shown once, store it now):\n\n  ${rotated.created.key}\n`);
    show({ new: rotated.created.view, old: rotated.old.view });
    break;
  }
  case "quota:show":
    show(await tenantQuotas(env, tenantOption()));
    break;
  case "quota:set": {
    const tenant = tenantOption();
    const raw = given({
      agents: values.agents,
      nodes_per_agent: values["nodes-per-agent"],
      messages_per_day: values["messages-per-day"],
      requests_per_minute: values["requests-per-minute"],
      model_weight: values["model-weight"],
    });
    const patch = parsed(QuotaOverridesSchema, Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v === "default" ? null : v])));
    if (Object.keys(patch).length === 0) fail("name at least one quota to set (see the file's header)");
    quotaDefaults(env); // a wrong default in the configuration fails here, before anything is written
    show(await setTenantQuotas(env, tenant, patch, by, now));
    break;
  }
  case "placement:show":
    show(await tenantPlacement(d1, tenantOption()));
    break;
  case "placement:set": {
    const tenant = tenantOption();
    const none = (value: string | undefined) => (value === "none" ? null : value);
    const patch = parsed(TenantPlacementSchema, given({ jurisdiction: none(values.jurisdiction), region: none(values.region) }));
    try {
      show(await setTenantPlacement(d1, tenant, patch, by, now));
    } catch (err) {
      if (err instanceof JurisdictionLockedError) fail(err.message);
      throw err;
    }
    break;
  }
  case "usage": {
    const tenant = tenantOption();
    show(await usageReport(d1, tenant, parsed(UsageQuerySchema, given({ from: values.from, to: values.to })), now));
    break;
  }
  case "audit": {
    const limit = values.limit === undefined ? 100 : parsed(z.coerce.number().int().min(1).max(1000), values.limit);
    show(await auditPage(d1, tenantOption(), undefined, limit));
    break;
  }
}
