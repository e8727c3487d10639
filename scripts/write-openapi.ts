/**
 * Writes the API's OpenAPI document (as GET /v1/openapi.json serves it) to dist/openapi.json, for
 * `npm run lint:openapi` to lint with Redocly's recommended rules (redocly.yaml), offline.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createApp, openApiConfig } from "../src/app";

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "openapi.json");
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(createApp().getOpenAPI31Document(openApiConfig("http://127.0.0.1:8787")), null, 2));
