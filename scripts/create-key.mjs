// `npm run key:create -- --tenant <tenant> [--label <text>] [--local]`
// Creates an API key bound to a tenant: prints the key once and stores only its SHA-256 hash in D1
// (the remote production database by default; --local writes the `npm run dev` database instead).
import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { applyLocalMigrations, offlineEnv, ROOT } from "./local-server.mjs";

const TENANT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

const { values } = parseArgs({
  options: { tenant: { type: "string" }, label: { type: "string" }, local: { type: "boolean", default: false } },
});
if (!values.tenant || !TENANT.test(values.tenant)) {
  console.error(
    "usage: npm run key:create -- --tenant <id> [--label <text>] [--local]\n  tenant: 1–64 of A–Z a–z 0–9 _ . -, starting with a letter or digit",
  );
  process.exit(2);
}

// 32 random characters from 62 (≈190 bits); rejection sampling keeps them uniform.
let secret = "";
while (secret.length < 32) for (const b of randomBytes(64)) if (b < 248 && secret.length < 32) secret += ALPHABET[b % 62];
const key = `amk_${secret}`;
const hash = createHash("sha256").update(key).digest("hex");
const quote = (s) => `'${String(s).replaceAll("'", "''")}'`;
const sql = `INSERT INTO api_keys (key_hash, tenant_id, label, created_at) VALUES (${quote(hash)}, ${quote(values.tenant)}, ${values.label ? quote(values.label) : "NULL"}, ${Date.now()});`;

if (values.local) applyLocalMigrations({ persistTo: path.join(ROOT, ".wrangler", "state") });
const target = values.local
  ? ["--local", "-c", "wrangler.local.toml", "--persist-to", path.join(ROOT, ".wrangler", "state")]
  : ["--remote", "-c", "wrangler.toml"];
const result = spawnSync(path.join(ROOT, "node_modules", ".bin", "wrangler"), ["d1", "execute", "DB", ...target, "--command", sql], {
  cwd: ROOT,
  env: values.local ? offlineEnv() : process.env,
  stdio: ["ignore", "ignore", "inherit"],
});
if (result.status !== 0) {
  console.error("storing the key failed (see above); nothing was created");
  process.exit(result.status ?? 1);
}
console.log(`API key for tenant "${values.tenant}" (shown once, store it now):\n\n  ${key}\n`);
