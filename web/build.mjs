// Builds the web view (DESIGN §14) into web/dist/, the Worker's static assets directory
// (wrangler.toml and wrangler.local.toml: [assets]). esbuild bundles web/src/main.ts with its
// npm dependencies (d3-force, zod/mini) into one script, so the page needs no CDN; web/public/ is
// copied as is. Run by wrangler itself before `wrangler dev` and `wrangler deploy` ([build] in both
// configurations), by vitest.config.ts (the test pool refuses to start without the directory) and
// by the browser tests. `node web/build.mjs` builds once; `--watch` rebuilds on change.
import { build, context } from "esbuild";
import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const WEB = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIST = path.join(WEB, "dist");
const PUBLIC = path.join(WEB, "public");

/** @type {import("esbuild").BuildOptions} */
const options = {
  entryPoints: [path.join(WEB, "src", "main.ts")],
  outfile: path.join(WEB_DIST, "app.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022", "chrome110", "firefox115", "safari16"],
  minify: process.env.WEB_MINIFY !== "0",
  sourcemap: "linked",
  legalComments: "linked",
  charset: "utf8",
  logLevel: "warning",
  metafile: true,
};

/**
 * Builds web/dist/. Files are replaced in place and only stale ones removed (a running
 * `wrangler dev` keeps serving the directory; deleting it under the server breaks its assets).
 * Resolves when the files are written; throws on a build error.
 */
export async function buildWeb() {
  mkdirSync(WEB_DIST, { recursive: true });
  cpSync(PUBLIC, WEB_DIST, { recursive: true });
  const result = await build(options);
  const wanted = new Set([
    ...readdirSync(PUBLIC, { recursive: true }).map(String),
    ...Object.keys(result.metafile?.outputs ?? {}).map((file) => path.relative(WEB_DIST, path.resolve(file))),
  ]);
  for (const file of readdirSync(WEB_DIST, { recursive: true }).map(String)) {
    if (!wanted.has(file) && !wanted.has(path.dirname(file))) rmSync(path.join(WEB_DIST, file), { recursive: true, force: true });
  }
  return WEB_DIST;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildWeb();
  if (process.argv.includes("--watch")) {
    const ctx = await context(options);
    await ctx.watch();
    console.log("web: watching web/src for changes");
  }
}
