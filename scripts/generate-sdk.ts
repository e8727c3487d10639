/**
 * `npm run generate:sdk`: writes sdk/src/generated/operations.ts from the server's operation list
 * and OpenAPI document (scripts/sdk-codegen.ts). `--check` only compares and exits 1 when the
 * committed file is stale. Run it after changing an operation, a route's schemas or an error code.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createApp, openApiConfig } from "../src/app";
import { ERROR_STATUS } from "../src/http/errors";
import { OPERATIONS } from "../src/routes";
import type { OpenApiDocument } from "../src/surfaces/operation-schemas";
import { generateSdkModule } from "./sdk-codegen";

const target = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "sdk", "src", "generated", "operations.ts");
const doc = createApp().getOpenAPI31Document(openApiConfig("http://127.0.0.1:8787")) as unknown as OpenApiDocument;
const text = generateSdkModule(doc, OPERATIONS, ERROR_STATUS);
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {
    // missing: stale
  }
  if (current !== text) {
    console.error(`${path.relative(process.cwd(), target)} is stale: run npm run generate:sdk`);
    process.exit(1);
  }
  console.log("the generated SDK module is current");
} else {
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
