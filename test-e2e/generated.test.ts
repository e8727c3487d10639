/**
 * The operation lists (src/operations/operation-tasks.ts, src/routes/endpoints.ts) and the SDK's
 * generated module (sdk/src/generated/operations.ts) are the ones `npm run generate:sdk` writes from
 * the folders of src/operations and the OpenAPI document: a new or changed operation cannot reach
 * the server without reaching the SDK. (In Node: the generator loads the app with tsx and the
 * wasm hooks.)
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

it("the committed operation lists and SDK module are current (npm run generate:sdk)", () => {
  const root = path.join(import.meta.dirname, "..");
  // The wasm hooks: the app imports jieba's WebAssembly module, as workerd does (scripts/wasm-hooks.mjs).
  const hooks = path.join(root, "scripts", "wasm-hooks.mjs");
  const output = execFileSync(
    process.execPath,
    ["--import", "tsx", "--import", hooks, path.join(root, "scripts", "generate-sdk.ts"), "--check"],
    {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  expect(output).toContain("the operation lists and the generated SDK module are current");
});
