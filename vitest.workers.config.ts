import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig, type ViteUserConfig } from "vitest/config";
import { buildWeb } from "./web/build.mjs";

// The tests that need the runtime run inside workerd with the local configuration (local model,
// local vector index). Tests use a fresh agent id (and tenant where they count agents) each.
//
// Test files share one runtime per pool worker (isolate: false): starting a workerd runtime and
// loading the Worker for every file cost about 5 s of CPU a file, most of this project's time.
// Storage then carries over from file to file, so the files that need the service's storage as
// it starts (D1 shard placement counts every agent registered; the fault tests abort every Durable
// Object) run in a runtime of their own each (vitest.workers-isolated.config.ts).
export const ISOLATED_FILES = ["test/scale.test.ts", "test/reliability.test.ts"];

// wrangler.local.toml serves web/dist as static assets, and the pool refuses to start without it:
// built once for both projects.
let built: Promise<unknown> | undefined;

export async function workersProject(test: {
  name: string;
  include: string[];
  exclude?: string[];
  isolate: boolean;
}): Promise<ViteUserConfig> {
  built ??= buildWeb();
  await built;
  // LOCAL_OPERATOR_SECRET of scripts/local-server.mjs (not importable here: this file is type-checked without JavaScript).
  const LOCAL_OPERATOR_SECRET = "operator-secret-local-only";
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    // ai-sdk/ depends on the SDK by its package name: here, its sources (test/session-story.test.ts).
    resolve: { alias: { "@agent-memory/sdk": path.join(import.meta.dirname, "sdk", "src", "index.ts") } },
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        remoteBindings: false,
        wrangler: { configPath: "./wrangler.local.toml" },
        // The admin API exists only with an operator secret; the local one, as the e2e server and the benchmarks pass it.
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, OPERATOR_SECRET: LOCAL_OPERATOR_SECRET } },
      }),
    ],
    test: {
      ...test,
      setupFiles: ["./test/setup/apply-migrations.ts"],
      maxWorkers: 2,
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig(() =>
  workersProject({
    name: "workers",
    include: ["test/**/*.test.ts"],
    exclude: ["test/unit/**", "test/faults/**", ...ISOLATED_FILES],
    isolate: false,
  }),
);
