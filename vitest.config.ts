// `npm test`: four projects in one run. unit: the pure modules in plain Node; workers: what needs
// the runtime, inside workerd, files sharing a runtime; workers-isolated: the few that need one of
// their own (vitest.workers.config.ts says why); e2e: the integration surfaces from the outside
// against a local server (`npm run test:e2e` runs it alone).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["./vitest.unit.config.ts", "./vitest.workers.config.ts", "./vitest.workers-isolated.config.ts", "./vitest.e2e.config.ts"],
  },
});
