import { MemoryClient } from "../sdk/src/index"; // in your project: from "@agent-memory/sdk"

const memory = new MemoryClient({
  baseUrl: process.env.MEMORY_URL ?? "http://127.0.0.1:8787",
  apiKey: process.env.MEMORY_KEY ?? "dev-key-local-only",
});
const agent = memory.agent("quickstart");

const { task_id } = await agent.remember({ messages: [{ role: "user", content: "我女儿下周三去杭州参加夏令营。", id: "q1" }] });
await agent.waitForTask(task_id);
const { text } = await agent.recall({ query: "夏令营" });
const block = await agent.getContext({ query: "Where is the summer camp?", budget_tokens: 300, locale: "en" });
console.log(text, "\n\n", block.text);
