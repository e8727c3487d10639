import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { buildWeb } from "./web/build.mjs";

// The tests that need the runtime run inside workerd with the local configuration (local model,
// local vector index). Storage is isolated per test file, so tests use a fresh agent id each.
export default defineConfig(async () => {
  // wrangler.local.toml serves web/dist as static assets, and the pool refuses to start without it.
  await buildWeb();
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        remoteBindings: false,
        wrangler: { configPath: "./wrangler.local.toml" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: {
      name: "workers",
      include: ["test/**/*.test.ts"],
      exclude: ["test/unit/**", "test/faults/**"],
      setupFiles: ["./test/setup/apply-migrations.ts"],
      maxWorkers: 2,
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  };
});
