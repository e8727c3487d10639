import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      /** Injected by vitest.config.ts: the D1 migrations, applied in test/setup/apply-migrations.ts. */
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
