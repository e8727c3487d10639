// `npm run test:e2e`: the integration surfaces from the outside, in Node (not the Workers pool of
// `npm test`): the official MCP client, the SDK and the example agent loop against a real local
// Worker (`wrangler dev --local`, started once by test-e2e/global-setup.ts on its own port and
// database).
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // ai-sdk/ depends on the SDK by its package name: here, its sources.
  resolve: { alias: { "@agent-memory/sdk": path.join(import.meta.dirname, "sdk", "src", "index.ts") } },
  test: {
    name: "e2e",
    root: import.meta.dirname,
    include: ["test-e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./test-e2e/global-setup.ts"],
    // One file at a time: they share the server and the 2 cores.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
