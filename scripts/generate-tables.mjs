/**
 * `npm run generate:tables [-- --check]`: runs every generator of the language library's word
 * tables (src/language/tables/*.generate.mjs, each beside the table it writes). With `--check`
 * nothing is written and the run fails when a committed table differs from what its generator
 * makes now (CI).
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const tables = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "src", "language", "tables");
let failed = 0;
for (const file of readdirSync(tables)
  .filter((f) => f.endsWith(".generate.mjs"))
  .sort()) {
  const run = spawnSync(process.execPath, [path.join(tables, file), ...process.argv.slice(2)], { stdio: "inherit" });
  if (run.status !== 0) failed += 1;
}
if (failed > 0) process.exitCode = 1;
