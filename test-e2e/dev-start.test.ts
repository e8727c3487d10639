/**
 * `npm run dev` on a fresh clone, as a new user starts it (issue 26): a copy of the repository's
 * files without .wrangler/ or web/dist/ (node_modules linked, as `npm ci` would have made it),
 * started with `npm run dev`. At most 31 lines before the URL, one web build and no rebuild after
 * it, the page served; and a failing migration still shows wrangler's error and stops the start.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..");
/** Not 8783–8787 (browser tests, npm run dev) nor 8790–8799 (e2e, benchmarks). */
const PORT = 8789 + Number(process.env.TEST_PORT_OFFSET ?? 0);
// Each binding and var is one line of wrangler's table: 25 until issue 37 added two bindings that
// cannot be left out locally (REQUEST_RATE, the tenants' rate; MODEL_SHARE, the account's fair share);
// 31 since issue 35's EU placement: the EU shard (its binding, its migration line, D1_EU_SHARDS) and
// EMULATE_JURISDICTIONS (workerd has no jurisdictions), so an EU tenant runs locally too.
const MAX_LINES_BEFORE_URL = 31;
/** How long the started server is watched after its URL for a second build. */
const SETTLE_MS = 6_000;

/** The repository's files as a clone has them (the working tree's versions), node_modules linked. */
function freshClone(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "agent-memory-clone-"));
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter((f) => f !== "")) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    try {
      cpSync(path.join(ROOT, file), path.join(dir, file));
    } catch {
      // deleted in the working tree: not in the clone either
    }
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

const clones: string[] = [];
afterAll(() => {
  for (const dir of clones) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `npm run dev` in `dir` until it prints `readyLine` (then `whileUp` runs and the server is
 * watched SETTLE_MS more before it is stopped), until it exits, or until the timeout; returns
 * everything it printed, in order, and its exit code if it exited by itself.
 */
async function runDev(
  dir: string,
  readyLine: string,
  whileUp: () => Promise<void> = async () => {},
  timeoutMs = 180_000,
): Promise<{ output: string; code: number | null }> {
  const child = spawn("npm", ["run", "dev"], {
    cwd: dir,
    env: { ...process.env, PORT: String(PORT), FORCE_COLOR: "0", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString("utf8")));
  child.stderr.on("data", (d: Buffer) => (output += d.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  let code: number | null | undefined;
  let stopAt = deadline;
  while (Date.now() < stopAt && code === undefined) {
    code = await Promise.race([exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 200))]);
    if (code === undefined && stopAt === deadline && output.includes(readyLine)) {
      await whileUp();
      stopAt = Date.now() + SETTLE_MS;
    }
  }
  if (code === undefined) {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    await exited;
  }
  return { output, code: code ?? null };
}

it(`prints at most ${MAX_LINES_BEFORE_URL} lines before the URL on a fresh clone, builds the page once and serves it`, async () => {
  const dir = freshClone();
  clones.push(dir);
  const url = `http://127.0.0.1:${PORT}`;
  let page = 0;
  const { output } = await runDev(dir, `Ready on ${url}`, async () => {
    page = (await fetch(`${url}/`).catch(() => undefined))?.status ?? 0;
  });
  const lines = output.split("\n");
  const urlLine = lines.findIndex((l) => l.includes(`Ready on ${url}`));
  expect(urlLine, output).toBeGreaterThan(0);
  console.log(`npm run dev on a fresh clone: ${urlLine} lines before the URL`);
  expect(urlLine, `lines before the URL:\n${lines.slice(0, urlLine).join("\n")}`).toBeLessThanOrEqual(MAX_LINES_BEFORE_URL);
  // One line per D1 database for the migrations, all of them applied on the fresh clone.
  expect(lines.filter((l) => /^D1 DB(_[A-Z0-9]+)?: \d+ migrations applied$/.test(l)).length, output).toBe(3);
  expect(output.match(/\[custom build\] Running/g)?.length, output).toBe(1);
  expect(output, "a second build after the start").not.toMatch(/changed, restarting build/);
  expect(output).not.toMatch(/error/i);
  // The page was served once the URL was printed.
  expect(page).toBe(200);
});

it("a migration that fails stops the start and shows wrangler's error", async () => {
  const dir = freshClone();
  clones.push(dir);
  writeFileSync(path.join(dir, "migrations", "9999_broken.sql"), "CREATE TABLE broken (;\n");
  const { output, code } = await runDev(dir, "Ready on", async () => {}, 120_000);
  expect(code).not.toBe(0);
  expect(output).toContain("applying local D1 migrations to DB failed");
  expect(output).toContain("9999_broken.sql");
  expect(output).toContain("SQLITE_ERROR");
  expect(output).not.toContain("Ready on");
});
