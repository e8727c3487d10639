/** The README's SDK example is examples/quickstart.ts, and it runs as shown against the local Worker. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, inject, it } from "vitest";

const root = path.join(import.meta.dirname, "..");

it("the README shows examples/quickstart.ts verbatim (but its import), and it prints the recalled memory", () => {
  const example = readFileSync(path.join(root, "examples", "quickstart.ts"), "utf8");
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const body = example.split("\n").slice(1).join("\n").trim();
  expect(readme).toContain('import { MemoryClient } from "@agent-memory/sdk";');
  expect(readme).toContain(body);
  const output = execFileSync(process.execPath, ["--import", "tsx", path.join(root, "examples", "quickstart.ts")], {
    cwd: root,
    env: { ...process.env, MEMORY_URL: inject("baseUrl") },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(output).toContain("夏令营");
  expect(output).toContain("杭州");
});
