/**
 * The README's examples run as shown against the local Worker: the example agent loop
 * (examples/agent-loop.ts) and the quickstart (examples/quickstart.ts, run as a user runs it).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, inject, it } from "vitest";
import { runAgentLoop } from "../examples/agent-loop";

const ROOT = path.resolve(import.meta.dirname, "..");

it("the stub model remembers through the tools and answers later questions from memory", async () => {
  const lines: string[] = [];
  const answers = await runAgentLoop({
    baseUrl: inject("baseUrl"),
    apiKey: "dev-key-local-only",
    agentId: `example-${Math.random().toString(36).slice(2, 8)}`,
    turns: [
      "My daughter Mia starts school in Zurich next September.",
      "我最喜欢的茶是龙井。",
      "Where does Mia start school?",
      "我最喜欢什么茶？",
    ],
    log: (line) => lines.push(line),
  });
  expect(answers[0]).toBe("Noted.");
  expect(answers[2]).toContain("Zurich");
  expect(answers[3]).toContain("龙井");
  expect(lines.join("\n")).toContain("tool search_memories");
});

it("the quickstart answers its English question with the English memory and its Chinese one with the Chinese memory", () => {
  const run = spawnSync(path.join(ROOT, "node_modules", ".bin", "tsx"), ["examples/quickstart.ts"], {
    cwd: ROOT,
    env: { ...process.env, MEMORY_URL: inject("baseUrl"), MEMORY_AGENT: `quickstart-${Math.random().toString(36).slice(2, 8)}` },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  // One block per question: "Q: <question>", then the recall text; its first item is the best match.
  const answers = new Map(
    run.stdout
      .split(/^Q: /m)
      .filter((block) => block.trim() !== "")
      .map((block) => {
        const [question = "", ...text] = block.split("\n");
        return [question, text.join("\n").trim()] as const;
      }),
  );
  expect([...answers.keys()]).toEqual(["Where is Mia's summer camp?", "夏令营在哪里？"]);
  const first = (answer: string | undefined) => answer?.split("\n---\n")[0];
  expect(first(answers.get("Where is Mia's summer camp?"))).toBe("[memory] My daughter Mia starts summer camp in Zurich next Wednesday.");
  expect(first(answers.get("夏令营在哪里？"))).toBe("[记忆] 我女儿下周三去杭州参加夏令营。");
});
