// `npm run build` (in sdk/, or `npm run build:sdk` at the root): ESM bundle-free output with
// declarations, by the TypeScript compiler of the repository (no dependency of the SDK's own): the
// native TypeScript 7 `tsc` of @typescript/native (the `typescript` name holds TypeScript 6's API,
// which dependency-cruiser needs).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
rmSync(path.join(here, "dist"), { recursive: true, force: true });
const tsc = path.join(here, "..", "node_modules", "@typescript", "native", "bin", "tsc");
const result = spawnSync(process.execPath, [tsc, "-p", path.join(here, "tsconfig.json")], { stdio: "inherit" });
process.exit(result.status ?? 1);
