/**
 * The SDK installed the way the README's "Installing the SDK" says, outside the repository: packed
 * with `npm pack` (which builds it) and installed from the tarball, as it will be once published,
 * and from its path; then used from plain JavaScript and type-checked from TypeScript against the
 * local Worker. No registry is asked (`--offline`): the SDK has no dependencies.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SDK = path.join(ROOT, "sdk");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** An empty project of its own, outside the repository. */
function consumer(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `sdk-consumer-${name}-`));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `sdk-consumer-${name}`, private: true, type: "module" }));
  return dir;
}

/** Uses the installed package the way the README does: remember, wait, recall; a typed error; the window check. */
const SCRIPT = `
import { ContextWindowTooSmallError, MemoryClient, NotFoundError } from "@agent-memory/sdk";
const memory = new MemoryClient({ baseUrl: process.env.MEMORY_URL, apiKey: "dev-key-local-only" });
const agent = memory.agent(process.env.MEMORY_AGENT);
const { task_id } = await agent.remember({ messages: [{ role: "user", content: "Noor repairs bicycles in Ghent.", id: "p1" }] });
await agent.waitForTask(task_id);
const { text } = await agent.recall({ query: "Who repairs bicycles?", locale: "en" });
let notFound = false;
try { await agent.getMemoryNode({ node_id: 999999 }); } catch (e) { notFound = e instanceof NotFoundError; }
let tooSmall = false;
try { agent.contextWindow({ contextMaxTokens: 400 }); } catch (e) { tooSmall = e instanceof ContextWindowTooSmallError; }
console.log(JSON.stringify({ text, notFound, tooSmall }));
`;

const TYPES = `
import { MemoryClient, type ChatMessage } from "@agent-memory/sdk";
const agent = new MemoryClient({ baseUrl: "http://127.0.0.1:8787", apiKey: "k" }).agent("a");
const messages: ChatMessage[] = [{ role: "user", content: "hello" }];
export const pending: Promise<{ task_id: string }> = agent.remember({ messages });
// @ts-expect-error a misspelled field is a type error
agent.recall({ qeury: "x" });
`;

const dirs: string[] = [];
let tarball = "";

beforeAll(() => {
  const packed = mkdtempSync(path.join(os.tmpdir(), "sdk-pack-"));
  dirs.push(packed);
  run(NPM, ["pack", "--pack-destination", packed], SDK);
  const files = readdirSync(packed);
  expect(files).toEqual([expect.stringMatching(/^agent-memory-sdk-\d+\.\d+\.\d+\.tgz$/)]);
  tarball = path.join(packed, files[0] ?? "");
}, 180_000);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the SDK installed outside the repository", () => {
  for (const from of ["tarball", "path"] as const) {
    it(`works installed from its ${from}`, () => {
      const dir = consumer(from);
      dirs.push(dir);
      run(NPM, ["install", "--offline", "--no-audit", "--no-fund", from === "tarball" ? tarball : SDK], dir);
      writeFileSync(path.join(dir, "check.mjs"), SCRIPT);
      const out = run(process.execPath, ["check.mjs"], dir, {
        MEMORY_URL: inject("baseUrl"),
        MEMORY_AGENT: `sdk-package-${from}-${Math.random().toString(36).slice(2, 8)}`,
      });
      const result = JSON.parse(out.stdout) as { text: string; notFound: boolean; tooSmall: boolean };
      expect(result.text).toContain("Noor repairs bicycles in Ghent.");
      expect(result.notFound).toBe(true);
      expect(result.tooSmall).toBe(true);

      // Its declarations serve a TypeScript project (strict, Node's module resolution).
      writeFileSync(path.join(dir, "check.ts"), TYPES);
      writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: "nodenext",
            moduleResolution: "nodenext",
            target: "es2022",
            lib: ["es2022", "dom"],
            types: [],
            noEmit: true,
          },
          files: ["check.ts"],
        }),
      );
      run(process.execPath, [path.join(ROOT, "node_modules", "@typescript", "native", "bin", "tsc"), "-p", "tsconfig.json"], dir);
    });
  }
});
