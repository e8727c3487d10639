/**
 * @agent-memory/ai-sdk: Agent Memory for the Vercel AI SDK (README, "Vercel AI SDK").
 *
 *   const tools = memoryTools({ agentId: "assistant-1", baseUrl, apiKey });
 *   const model = withMemory(openai("gpt-5"), { agentId: "assistant-1", baseUrl, apiKey });
 *   await generateText({ model, tools, prompt: "…" });
 */
export type { MemoryOptions } from "./agent.js";
export { DEFAULT_MEMORY_TOOLS, memoryTools, type MemoryToolsOptions } from "./tools.js";
export { memoryMiddleware, withMemory, type WithMemoryOptions } from "./with-memory.js";
