// The Workers-pool tests that need a runtime of their own (see vitest.workers.config.ts).
import { defineConfig } from "vitest/config";
import { ISOLATED_FILES, workersProject } from "./vitest.workers.config";

export default defineConfig(() => workersProject({ name: "workers-isolated", include: ISOLATED_FILES, isolate: true }));
