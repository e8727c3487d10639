// The pure modules' tests (test/unit, mirroring src/): plain Node, no web build and no workerd.
// A `.wasm` import is compiled the way workerd does it (scripts/wasm-hooks.mjs).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "unit",
    root: import.meta.dirname,
    include: ["test/unit/**/*.test.ts"],
    environment: "node",
    execArgv: ["--import", "./scripts/wasm-hooks.mjs"],
    // Some pure tests run the TypeScript compiler or a simulated minute of rate limits: seconds on
    // a quiet machine, many more on CI's two shared cores; vitest's 5 s default makes them flaky.
    testTimeout: 60_000,
  },
});
