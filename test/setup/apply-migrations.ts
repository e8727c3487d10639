import { applyD1Migrations, env } from "cloudflare:test";

// Runs before each test file: storage is isolated per file, so the schema is applied each time, to
// every D1 shard of the local configuration (wrangler.local.toml: D1_SHARDS).
await Promise.all([applyD1Migrations(env.DB, env.TEST_MIGRATIONS), applyD1Migrations(env.DB_2, env.TEST_MIGRATIONS)]);
