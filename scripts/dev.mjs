// `npm run dev`: the API on http://127.0.0.1:8787 with the local model and local vector index,
// local D1 migrations applied first. Use the development key from README.md. PORT overrides 8787.
// Quiet: one line per D1 database for the migrations (DEV_VERBOSE=1 shows wrangler's own), then
// wrangler's start-up, about 20 lines before the URL (test-e2e/dev-start.test.ts counts them).
import { applyLocalMigrations, offlineEnv, ROOT } from "./local-server.mjs";
import { spawn } from "node:child_process";
import path from "node:path";

const port = process.env.PORT ?? "8787";
const persistTo = path.join(ROOT, ".wrangler", "state");
for (const line of applyLocalMigrations({ persistTo, verbose: process.env.DEV_VERBOSE === "1" })) console.log(line);
const child = spawn(
  path.join(ROOT, "node_modules", ".bin", "wrangler"),
  [
    ...["dev", "--local", "-c", "wrangler.local.toml", "--ip", "127.0.0.1", "--port", port, "--persist-to", persistTo, "--test-scheduled"],
    // The admin API only when asked for (docs/deploy.md, "The admin API"): OPERATOR_SECRET=… npm run dev.
    ...(process.env.OPERATOR_SECRET ? ["--var", `OPERATOR_SECRET:${process.env.OPERATOR_SECRET}`] : []),
  ],
  { cwd: ROOT, env: offlineEnv(), stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
