/**
 * Rewrites one generated section of docs/BENCHMARKS.md (doc-sections.ts), keeping the hand-written
 * introduction (method, decisions, goals) and the other benchmark's section as they are.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../scripts/local-server.mjs";
import { replaceSection } from "./doc-sections";

export const BENCHMARKS_DOC = path.join(ROOT, "docs", "BENCHMARKS.md");

/** Write then rename: never a half-written file. */
export function writeDocSection(name: string, body: string, file = BENCHMARKS_DOC): void {
  const doc = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, replaceSection(doc, name, body));
  renameSync(tmp, file);
}
