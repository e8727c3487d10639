// `npm run build` (in ai-sdk/, or `npm run build:ai-sdk` at the root): the SDK first (its
// declarations are what this package is checked against), then this package, by the repository's
// TypeScript 7 compiler, as sdk/build.mjs does.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const sdk = spawnSync(process.execPath, [path.join(here, "..", "sdk", "build.mjs")], { stdio: "inherit" });
if (sdk.status !== 0) process.exit(sdk.status ?? 1);
rmSync(path.join(here, "dist"), { recursive: true, force: true });
const tsc = path.join(here, "..", "node_modules", "@typescript", "native", "bin", "tsc");
const result = spawnSync(process.execPath, [tsc, "-p", path.join(here, "tsconfig.build.json")], { stdio: "inherit" });
process.exit(result.status ?? 1);
