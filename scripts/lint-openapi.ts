/**
 * `npm run lint:openapi`: writes the API's OpenAPI document (as GET /v1/openapi.json serves it) to
 * dist/openapi.json and lints it with Redocly's recommended rules (redocly.yaml), offline.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createApp, openApiConfig } from "../src/app";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = path.join(root, "dist", "openapi.json");
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(createApp().getOpenAPI31Document(openApiConfig("http://127.0.0.1:8787")), null, 2));
const result = spawnSync(path.join(root, "node_modules", ".bin", "redocly"), ["lint", file, "--config", path.join(root, "redocly.yaml")], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
});
process.exit(result.status ?? 1);
