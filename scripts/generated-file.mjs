/**
 * How a generator of src/ writes its output (the word tables of src/language/tables/): the file as
 * generated, or with `--check` (CI, `npm run generate:tables -- --check`) a comparison with the
 * committed file that fails when they differ, so a stale table cannot pass.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export function writeGenerated(url, text) {
  const file = fileURLToPath(url);
  if (!process.argv.includes("--check")) {
    writeFileSync(file, text);
    return;
  }
  if (existsSync(file) && readFileSync(file, "utf8") === text) return;
  console.error(`${file} is stale: run npm run generate:tables`);
  process.exitCode = 1;
}
