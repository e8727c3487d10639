import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      /** Injected by vitest.config.ts: the D1 migrations, applied in test/setup/apply-migrations.ts. */
      TEST_MIGRATIONS: D1Migration[];
      /** The local EU shard (wrangler.local.toml: D1_EU_SHARDS); production declares its own (docs/deploy.md). */
      DB_EU: D1Database;
      EMULATE_JURISDICTIONS?: string;
    }
  }
}
