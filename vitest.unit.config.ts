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
  },
});
