// `npm run test:browser`: the web view's own tests, in Node (not the Workers pool of `npm test`):
// unit tests of its pure modules, and the browser tests, which start a local Worker and Chromium.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One file at a time: the browser tests own a server port and most of the 2 cores.
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
