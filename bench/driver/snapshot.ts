/**
 * A frozen build of the Worker for one benchmark run. `wrangler dev` rebuilds and restarts the
 * Worker whenever a source file changes, and other people edit this working tree while a benchmark
 * runs: a restart mid-run fails requests ("Your worker restarted mid-request") and would mix two
 * versions of the code in one result. So the harness bundles src/ once (`wrangler deploy --dry-run
 * --outdir`, offline) and serves that bundle with `no_bundle`, through a copy of wrangler.local.toml
 * whose only changes are the paths. The run measures the code as it was when it started.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { offlineEnv, ROOT } from "../../scripts/local-server.mjs";
import { snapshotConfig } from "./snapshot-config";

const LOCAL_CONFIG = path.join(ROOT, "wrangler.local.toml");
const WRANGLER = path.join(ROOT, "node_modules", ".bin", "wrangler");

/** Bundles the Worker into `dir` and returns the path of the wrangler config that serves it. */
export function buildSnapshot(dir: string): string {
  const outdir = path.join(dir, "bundle");
  mkdirSync(outdir, { recursive: true });
  const result = spawnSync(WRANGLER, ["deploy", "--dry-run", "--outdir", outdir, "-c", LOCAL_CONFIG], {
    cwd: ROOT,
    env: offlineEnv(),
    stdio: "pipe",
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`bundling the Worker failed (exit ${result.status})\n${result.stdout}\n${result.stderr}`);
  }
  // The web view's assets are copied too: wrangler reloads when the directory it serves changes,
  // and the tests rebuild web/dist (vitest.workers.config.ts), which ended a run mid-request.
  const assets = path.join(dir, "assets");
  cpSync(path.join(ROOT, "web", "dist"), assets, { recursive: true });
  const config = path.join(dir, "wrangler.bench.toml");
  const toml = snapshotConfig(readFileSync(LOCAL_CONFIG, "utf8"), path.join(outdir, "index.js"), path.join(ROOT, "migrations"), assets);
  writeFileSync(config, toml);
  return config;
}
