import { applyD1Migrations, env } from "cloudflare:test";

// Runs before each test file, to every D1 shard of the local configuration (wrangler.local.toml:
// D1_SHARDS, D1_EU_SHARDS). A file that shares its runtime with earlier ones finds them applied: D1 records the
// migrations it ran, so each runs once.
await Promise.all([
  applyD1Migrations(env.DB, env.TEST_MIGRATIONS),
  applyD1Migrations(env.DB_2, env.TEST_MIGRATIONS),
  applyD1Migrations(env.DB_EU, env.TEST_MIGRATIONS),
]);
