/**
 * An agent loop with memory (README, "SDK"): a stub model (no LLM, deterministic) that is handed the
 * memory tools in OpenAI's format, calls them, and answers from what they return; the
 * context-window helper keeps the conversation under 80% of a small window, remembering the
 * overflow and injecting the context block.
 *
 *   npm run dev                      # in another terminal
 *   npx tsx examples/agent-loop.ts   # MEMORY_URL, MEMORY_KEY, MEMORY_AGENT override the defaults
 */
import { MemoryClient, type ChatMessage, type OpenAiTool } from "../sdk/src";

/** What a chat model returns: text, or calls of the tools it was given. */
type ModelTurn = { content: string; toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[] };

/**
 * The stub model: saves what the user tells it (`remember`), looks up what the user asks
 * (`search_memories`), and answers with what the tool returned. A real model does the same when
 * given these tools; only the decisions here are rules instead of a model.
 */
type ToolMessage = { role: "tool"; content: string; tool_call_id: string; name: string };

function stubModel(messages: readonly (ChatMessage | ToolMessage)[], tools: readonly OpenAiTool[]): ModelTurn {
  const last = messages.at(-1);
  const available = new Set(tools.map((t) => t.function.name));
  if (last?.role === "tool")
    return { content: last.name === "remember" ? "Noted." : `From memory: ${last.content.slice(0, 300)}`, toolCalls: [] };
  if (last?.role !== "user") return { content: "…", toolCalls: [] };
  const call = (name: string, args: unknown) => {
    if (!available.has(name)) throw new Error(`the model was not given ${name}`);
    return { id: `call_${messages.length}`, type: "function" as const, function: { name, arguments: JSON.stringify(args) } };
  };
  const question = /\?|？|吗|什么|哪/.exec(last.content);
  if (question)
    return { content: "", toolCalls: [call("search_memories", { query: last.content.replace(/[?？]/g, ""), mode: "hybrid", top_k: 3 })] };
  return { content: "Noted.", toolCalls: [call("remember", { messages: [{ role: "user", content: last.content, id: last.id }] })] };
}

export interface LoopOptions {
  baseUrl: string;
  apiKey: string;
  agentId: string;
  /** The user's turns, in order. */
  turns: readonly string[];
  log?: (line: string) => void;
}

/** Runs the conversation; resolves with the assistant's answers, one per user turn. */
export async function runAgentLoop(options: LoopOptions): Promise<string[]> {
  const log = options.log ?? (() => {});
  const agent = new MemoryClient({ baseUrl: options.baseUrl, apiKey: options.apiKey }).agent(options.agentId);
  const tools = agent.tools("openai");
  const window = agent.contextWindow({ contextMaxTokens: 2000, blockTokens: 200, locale: "en" });
  const conversation: ChatMessage[] = [{ role: "system", content: "You are an assistant with a long-term memory." }];
  const answers: string[] = [];
  for (const [i, text] of options.turns.entries()) {
    conversation.push({ role: "user", content: text, id: `u${i}` });
    // What to send: the recent turns, plus the memories of what no longer fits.
    const { messages, block } = await window.prepare(conversation);
    const sent: Parameters<typeof stubModel>[0] = block ? [{ role: "system", content: block }, ...messages] : [...messages];
    let turn = stubModel(sent, tools);
    for (const call of turn.toolCalls) {
      const result = await agent.handleToolCall(call);
      log(`  tool ${call.function.name}${result.isError ? " (error)" : ""}: ${result.content.slice(0, 120)}`);
      if (call.function.name === "remember" && !result.isError) await agent.waitForTask((result.result as { task_id: string }).task_id);
      turn = stubModel([...sent, { role: "tool", content: result.content, tool_call_id: call.id, name: call.function.name }], tools);
    }
    log(`user: ${text}\nassistant: ${turn.content}`);
    conversation.push({ role: "assistant", content: turn.content, id: `a${i}` });
    answers.push(turn.content);
  }
  await window.flush(conversation);
  return answers;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const answers = await runAgentLoop({
    baseUrl: process.env.MEMORY_URL ?? "http://127.0.0.1:8787",
    apiKey: process.env.MEMORY_KEY ?? "dev-key-local-only",
    agentId: process.env.MEMORY_AGENT ?? `example-${Date.now()}`,
    turns: [
      "My daughter Mia starts school in Zurich next September.",
      "我最喜欢的茶是龙井。",
      "Where does Mia start school?",
      "我最喜欢什么茶？",
    ],
    log: (line) => console.log(line),
  });
  if (!answers[2]?.includes("Zurich") || !answers[3]?.includes("龙井")) {
    console.error("the memory did not answer as expected");
    process.exit(1);
  }
}
