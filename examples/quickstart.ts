import { MemoryClient } from "../sdk/src"; // in your project: from "@agent-memory/sdk"

const memory = new MemoryClient({
  baseUrl: process.env.MEMORY_URL ?? "http://127.0.0.1:8787",
  apiKey: process.env.MEMORY_KEY ?? "dev-key-local-only",
});
const agent = memory.agent(process.env.MEMORY_AGENT ?? "quickstart");

const { task_id } = await agent.remember({
  messages: [
    { role: "user", content: "My daughter Mia starts summer camp in Zurich next Wednesday.", id: "q1" },
    { role: "user", content: "我女儿下周三去杭州参加夏令营。", id: "q2" },
  ],
});
await agent.waitForTask(task_id);

// Ask in the language of the memory: the built-in local embedder matches within a language
// (Workers AI's bge-m3, in production, also across languages).
for (const [question, locale] of [
  ["Where is Mia's summer camp?", "en"],
  ["夏令营在哪里？", "zh"],
] as const) {
  const { text } = await agent.recall({ query: question, locale });
  console.log(`Q: ${question}\n${text}\n`);
}
