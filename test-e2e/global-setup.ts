/**
 * Starts one local Worker for the end-to-end tests (wrangler dev --local, a fresh database under
 * .wrangler/e2e) and creates a second tenant's key in it, for the isolation tests.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyLocalMigrations, LOCAL_OPERATOR_SECRET, offlineEnv, ROOT, startLocalServer } from "../scripts/local-server.mjs";
import { buildWeb } from "../web/build.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    otherTenantKey: string;
    /** The server's local state directory (the operator's CLI writes its database there). */
    persistTo: string;
  }
}

export const OTHER_TENANT_KEY = "amk_e2eOtherTenantKey000000000000";

export default async function setup(project: TestProject) {
  // wrangler.local.toml serves web/dist as static assets: the Worker does not start without it.
  await buildWeb();
  const persistTo = path.join(ROOT, ".wrangler", "e2e");
  rmSync(persistTo, { recursive: true, force: true });
  const port = Number(process.env.E2E_PORT ?? 8797);
  // The key first (the database is not shared with a running server yet), then the server.
  applyLocalMigrations({ persistTo });
  const hash = createHash("sha256").update(OTHER_TENANT_KEY).digest("hex");
  const sql = `INSERT INTO api_keys (key_hash, tenant_id, label, created_at) VALUES ('${hash}', 'tenant-e2e-other', 'e2e', ${Date.now()});`;
  const insert = spawnSync(
    path.join(ROOT, "node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "-c", "wrangler.local.toml", "--persist-to", persistTo, "--command", sql],
    { cwd: ROOT, env: offlineEnv(), encoding: "utf8" },
  );
  if (insert.status !== 0) throw new Error(`creating the second tenant's key failed\n${insert.stderr}`);
  const server = await startLocalServer({ port, persistTo, quiet: true, extraArgs: ["--var", `OPERATOR_SECRET:${LOCAL_OPERATOR_SECRET}`] });
  project.provide("baseUrl", server.url);
  project.provide("otherTenantKey", OTHER_TENANT_KEY);
  project.provide("persistTo", persistTo);
  return () => server.stop();
}
