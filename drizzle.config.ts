import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes SQL migrations for D1 into migrations/ (offline; no credentials needed).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/storage/schema.ts",
  out: "./migrations",
});
