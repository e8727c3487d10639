import { applyD1Migrations, env } from "cloudflare:test";

// Runs before each test file: storage is isolated per file, so the schema is applied each time.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
