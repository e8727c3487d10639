/**
 * `npm run generate:sdk`: writes the operation lists from the folders of src/operations
 * (scripts/operation-lists.ts), then sdk/src/generated/operations.ts from the server's operation
 * list and OpenAPI document (scripts/sdk-codegen.ts). `--check` only compares and exits 1 when a
 * committed file is stale. Run it after adding an operation or changing one, a route's schemas or
 * an error code.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { operationLists, type GeneratedFile } from "./operation-lists";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");

function current(file: GeneratedFile): boolean {
  try {
    return readFileSync(path.join(root, file.path), "utf8") === file.text;
  } catch {
    return false; // missing: stale
  }
}

/** Writes the file, or with --check reports it stale (and returns false). */
function emit(file: GeneratedFile, command: string): boolean {
  if (check) {
    if (current(file)) return true;
    console.error(`${file.path} is stale: run ${command}`);
    return false;
  }
  writeFileSync(path.join(root, file.path), file.text);
  console.log(`wrote ${file.path}`);
  return true;
}

let fresh = operationLists(root)
  .map((file) => emit(file, "npm run generate:sdk"))
  .every(Boolean);
// The app is read after its lists are written: the SDK module comes from the operations they list.
const { createApp, openApiConfig } = await import("../src/app");
const { ERROR_STATUS } = await import("../src/http/errors");
const { OPERATIONS } = await import("../src/routes");
const { generateSdkModule } = await import("./sdk-codegen");
type OpenApiDocument = import("../src/surfaces/operation-schemas").OpenApiDocument;
const doc = createApp().getOpenAPI31Document(openApiConfig("http://127.0.0.1:8787")) as unknown as OpenApiDocument;
fresh =
  emit({ path: "sdk/src/generated/operations.ts", text: generateSdkModule(doc, OPERATIONS, ERROR_STATUS) }, "npm run generate:sdk") &&
  fresh;
if (!fresh) process.exit(1);
if (check) console.log("the operation lists and the generated SDK module are current");
