// Starts the API locally on the embedded defaults: applies the D1 migrations to the local
// database, then runs `wrangler dev --local` on 127.0.0.1. No Cloudflare account, no network.
// Shared by `npm run dev` (scripts/dev.mjs) and the benchmark harness (bench/).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The operator secret of the servers tests and benchmarks start (docs/deploy.md, "The admin API"):
 * public, like the development key, and local only; `npm run dev` sets none unless OPERATOR_SECRET
 * is in its environment (scripts/dev.mjs).
 */
export const LOCAL_OPERATOR_SECRET = "operator-secret-local-only";
const WRANGLER = path.join(ROOT, "node_modules", ".bin", "wrangler");

/**
 * Environment that keeps wrangler quiet, offline and its own files inside .wrangler/. The project's
 * node_modules/.bin comes first on PATH, as in an npm script, so wrangler (`#!/usr/bin/env node`)
 * runs on the project's Node 22 (the `node` devDependency) even when this file was started with an
 * older system Node outside npm.
 */
export function offlineEnv(extra = {}) {
  const home = path.join(ROOT, ".wrangler", "home");
  mkdirSync(home, { recursive: true });
  return {
    ...process.env,
    PATH: [path.join(ROOT, "node_modules", ".bin"), process.env.PATH].filter(Boolean).join(path.delimiter),
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_HIDE_BANNER: "true",
    XDG_CONFIG_HOME: home,
    ...extra,
  };
}

/** The binding of every `[[d1_databases]]` entry of a wrangler TOML file (the D1 shards: each gets the migrations). */
export function d1Bindings(toml) {
  const bindings = [];
  for (const block of toml.split(/^\[/m).slice(1)) {
    if (!block.startsWith("[d1_databases]]")) continue;
    const binding = /^binding\s*=\s*"([^"]+)"/m.exec(block)?.[1];
    if (binding) bindings.push(binding);
  }
  return bindings;
}

/**
 * Applies migrations/ to every local D1 database (each shard) kept in `persistTo`. Returns one line
 * per database saying how many migrations were applied (wrangler's own output, about 170 lines per
 * database with its tables, is kept back unless `verbose`). Throws on failure, with wrangler's
 * whole output.
 */
export function applyLocalMigrations({ persistTo, config = "wrangler.local.toml", verbose = false }) {
  const summary = [];
  for (const binding of d1Bindings(readFileSync(path.resolve(ROOT, config), "utf8"))) {
    const result = spawnSync(WRANGLER, ["d1", "migrations", "apply", binding, "--local", "-c", config, "--persist-to", persistTo], {
      cwd: ROOT,
      env: offlineEnv(),
      stdio: verbose ? ["ignore", "inherit", "inherit"] : "pipe",
      encoding: "utf8",
    });
    if (result.status !== 0) {
      const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
      throw new Error(`applying local D1 migrations to ${binding} failed (exit ${result.status})\n${output}`);
    }
    const applied = /About to apply (\d+) migration/.exec(result.stdout ?? "")?.[1];
    summary.push(`D1 ${binding}: ${applied === undefined ? "migrations up to date" : `${applied} migrations applied`}`);
  }
  return summary;
}

/**
 * Starts `wrangler dev --local` and resolves once /v1/health answers. Returns the child process
 * and a stop() that terminates it. `migrate: false` skips the D1 migrations (a restart on a persist
 * directory they were already applied to: the fault suite restarts the server many times).
 */
export async function startLocalServer({
  port = 8787,
  persistTo = path.join(ROOT, ".wrangler", "state"),
  config = "wrangler.local.toml",
  quiet = false,
  extraArgs = /** @type {string[]} */ ([]),
  readyTimeoutMs = 60_000,
  migrate = true,
  // What must answer 2xx for the server to count as ready (another Worker than the API: its own path).
  readyPath = "/v1/health",
} = {}) {
  if (migrate) applyLocalMigrations({ persistTo, config });
  const child = spawn(
    WRANGLER,
    ["dev", "--local", "-c", config, "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persistTo, ...extraArgs],
    { cwd: ROOT, env: offlineEnv(), stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", detached: quiet },
  );
  let output = "";
  if (quiet) {
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}\n${output}`);
    try {
      const res = await fetch(`${url}${readyPath}`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (Date.now() >= deadline) {
    stopChild(child);
    throw new Error(`wrangler dev did not become ready within ${readyTimeoutMs} ms\n${output}`);
  }
  return { url, child, stop: () => stopChild(child), output: () => output };
}

function stopChild(child) {
  if (child.exitCode !== null) return;
  try {
    // Detached children lead their own process group: stop workerd with them.
    if (child.spawnargs && child.pid) process.kill(-child.pid, "SIGTERM");
  } catch {
    child.kill("SIGTERM");
  }
}
