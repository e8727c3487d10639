/**
 * `npm run lint:comment-paths` (part of `npm run lint`): every file path a comment of the code cites
 * names a file that exists, so a comment never sends a reader to a file that was moved or deleted.
 *
 * A path from the top of the repository (src/…, test/…, docs/…) or a relative one (./…, ../…, from
 * the citing file or from the top, where commands run) must exist as written; a shorter path of a
 * source file (a file name, or its last folders, as in "metered-d1.ts" or "quality/extras.ts") must
 * be the end of some file's path in the repository. Not files of the repository, so not checked:
 * paths outside it (../shared/…), outputs that git ignores (dist/…, quick benchmark results), and
 * short paths of data files (a data set's own names, such as "locomo10.json").
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const NOT_SOURCE = new Set(["node_modules", ".git", ".wrangler", "dist"]);
/** Generated code: its comments are its generator's (scripts/sdk-codegen.ts), checked there. */
const GENERATED = /(^|\/)generated\//;
const CODE = /\.(ts|mts|mjs|cjs)$/;

function* walk(dir) {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (NOT_SOURCE.has(entry.name)) continue;
    const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(rel);
    else yield rel;
  }
}

const files = [...walk("")];
const TOP = new Set(readdirSync(ROOT));
const COMMENT = /\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g;
const PATH = /(?<![\w./@-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-][\w.-]*\.(?:ts|mts|mjs|cjs|js|md|json|jsonc|sql|toml|yaml))(?![\w/-])/g;

function gitIgnored(rel) {
  try {
    execFileSync("git", ["check-ignore", "--no-index", "-q", rel], { cwd: ROOT, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const SOURCE = /\.(ts|mts|mjs|cjs|js)$/;

function cites(file, cited) {
  if (cited.startsWith("./") || cited.startsWith("../")) {
    const places = [path.posix.normalize(path.posix.join(path.posix.dirname(file), cited)), path.posix.normalize(cited)];
    return places.some((rel) => rel.startsWith("../") || existsSync(path.join(ROOT, rel)) || gitIgnored(rel));
  }
  if (cited.startsWith("node_modules/")) return true;
  if (TOP.has(cited.split("/")[0] ?? "")) return existsSync(path.join(ROOT, cited)) || gitIgnored(cited);
  if (!SOURCE.test(cited)) return true;
  return files.some((f) => f === cited || f.endsWith(`/${cited}`));
}

const missing = [];
for (const file of files.filter((f) => CODE.test(f) && !GENERATED.test(f))) {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  for (const comment of text.matchAll(COMMENT)) {
    for (const match of comment[0].matchAll(PATH)) {
      const cited = match[1];
      if (cites(file, cited)) continue;
      const line = text.slice(0, comment.index + match.index).split("\n").length;
      missing.push(`${file}:${line}: ${cited}`);
    }
  }
}
if (missing.length > 0) {
  console.error(`${missing.length} path(s) cited in comments name no file of the repository:\n${missing.join("\n")}`);
  process.exit(1);
}
console.log("every path cited in a comment exists");
