/**
 * The memory in a Vercel AI SDK app (README, "Vercel AI SDK"): `withMemory` wraps the model so each
 * call carries the context block for the user's question and remembers the exchange afterwards;
 * `memoryTools` lets the model call the memory itself. Offline, a stand-in model (the AI SDK's
 * mock) calls `recall` and answers with the first memory; put your provider's model in its place
 * (`openai("gpt-5")`, `anthropic("claude-sonnet-4-5")`…).
 *
 *   npm run dev                  # in another terminal
 *   npx tsx examples/ai-sdk.ts   # MEMORY_URL, MEMORY_KEY, MEMORY_AGENT override the defaults
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { memoryTools, withMemory } from "../ai-sdk/src"; // in your project: from "@agent-memory/ai-sdk"
import { MemoryClient } from "../sdk/src"; // in your project: from "@agent-memory/sdk"

const USAGE = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/**
 * Calls `recall` with the user's question, then answers with the first memory it returned: what a
 * real model does with these tools, as fixed rules.
 */
function standInModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1);
      if (last?.role === "user") {
        const question = last.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ");
        const input = JSON.stringify({ query: question, locale: "en" });
        return {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName: "recall", input }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: USAGE,
          warnings: [],
        };
      }
      const recalled = /\[memory\] ([^\\"\n]+)/.exec(JSON.stringify(last ?? ""))?.[1] ?? "I don't know yet.";
      return { content: [{ type: "text", text: recalled }], finishReason: { unified: "stop", raw: "stop" }, usage: USAGE, warnings: [] };
    },
  });
}

export async function runAiSdkExample(options: { baseUrl: string; apiKey: string; agentId: string }): Promise<string> {
  const client = new MemoryClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });
  const writes: Promise<unknown>[] = [];
  const model = withMemory(standInModel(), {
    agentId: options.agentId,
    client,
    context: { locale: "en" },
    waitUntil: (write) => writes.push(write), // in a Worker: (write) => ctx.waitUntil(write)
  });
  const agent = client.agent(options.agentId);
  const { task_id } = await agent.remember({
    messages: [{ role: "user", content: "My daughter Mia starts summer camp in Zurich next Wednesday.", id: "ex1" }],
  });
  await agent.waitForTask(task_id);

  const { text } = await generateText({
    model,
    tools: memoryTools({ agentId: options.agentId, client }),
    stopWhen: stepCountIs(3),
    system: "You are a helpful assistant.",
    prompt: "Where is Mia's summer camp?",
  });
  await Promise.all(writes); // the exchange, remembered in the background
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const answer = await runAiSdkExample({
    baseUrl: process.env.MEMORY_URL ?? "http://127.0.0.1:8787",
    apiKey: process.env.MEMORY_KEY ?? "dev-key-local-only",
    agentId: process.env.MEMORY_AGENT ?? "ai-sdk-example",
  });
  console.log(answer);
}
