/** The README's example agent loop (examples/agent-loop.ts) runs as shown against the local Worker. */
import { expect, inject, it } from "vitest";
import { runAgentLoop } from "../examples/agent-loop";

it("the stub model remembers through the tools and answers later questions from memory", async () => {
  const lines: string[] = [];
  const answers = await runAgentLoop({
    baseUrl: inject("baseUrl"),
    apiKey: "dev-key-local-only",
    agentId: `example-${Math.random().toString(36).slice(2, 8)}`,
    turns: ["My daughter Mia starts school in Zurich next September.", "我最喜欢的茶是龙井。", "Where does Mia start school?", "我最喜欢什么茶？"],
    log: (line) => lines.push(line),
  });
  expect(answers[0]).toBe("Noted.");
  expect(answers[2]).toContain("Zurich");
  expect(answers[3]).toContain("龙井");
  expect(lines.join("\n")).toContain("tool search_memories");
});
