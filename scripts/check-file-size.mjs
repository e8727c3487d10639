/**
 * `npm run lint:file-size` (part of `npm run lint`): no source file of src/ is over 400 lines, so a
 * file stays one concept a reader takes in at once (docs/architecture.md, "Layers"). Generated word
 * tables are a few long lines each and pass.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIMIT = 400;

const over = readdirSync(path.join(ROOT, "src"), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
  .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
  .map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), "utf8").split("\n").length - 1 }))
  .filter((f) => f.lines > LIMIT)
  .sort((a, b) => b.lines - a.lines);
if (over.length > 0) {
  console.error(`${over.length} file(s) of src/ over ${LIMIT} lines (split them by concept):`);
  for (const f of over) console.error(`  ${f.file}: ${f.lines}`);
  process.exitCode = 1;
} else console.log(`no file of src/ over ${LIMIT} lines`);
