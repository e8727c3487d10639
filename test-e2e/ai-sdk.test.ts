/**
 * The Vercel AI SDK package (ai-sdk/) against the local Worker, offline: the AI SDK's own mock
 * language model (`ai/test`) stands in for a provider. memoryTools: the model's tool calls run
 * on the memory (remember, then recall in a later call). withMemory: the context block of the
 * latest user turn reaches the model's system prompt, and the exchange is remembered afterwards,
 * for generateText and for streamText.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { generateText, stepCountIs, streamText } from "ai";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { describe, expect, inject, it } from "vitest";
import { DEFAULT_MEMORY_TOOLS, memoryTools, withMemory } from "../ai-sdk/src";
import { MemoryClient, type RememberOutput } from "../sdk/src";
import { runAiSdkExample } from "../examples/ai-sdk";

const baseUrl = inject("baseUrl");
const apiKey = "dev-key-local-only";
const client = new MemoryClient({ baseUrl, apiKey });

function freshAgent(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const STOP = { unified: "stop" as const, raw: "stop" };

function answer(text: string) {
  return { content: [{ type: "text" as const, text }], finishReason: STOP, usage: USAGE, warnings: [] };
}

function toolCall(toolName: string, input: unknown) {
  return {
    content: [{ type: "tool-call" as const, toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
    usage: USAGE,
    warnings: [],
  };
}

function systemOf(call: LanguageModelV4CallOptions | undefined): string {
  const first = call?.prompt[0];
  return first?.role === "system" ? first.content : "";
}

async function remembered(agentId: string, writes: Promise<RememberOutput | undefined>[]): Promise<void> {
  expect(writes).toHaveLength(1);
  const accepted = await writes[0];
  expect(accepted?.task_id).toMatch(/^tsk_/);
  await client.agent(agentId).waitForTask(accepted!.task_id);
}

describe("memoryTools", () => {
  it("gives the API's tools with their schemas; unknown names are refused", () => {
    const tools = memoryTools({ agentId: "a", client });
    expect(Object.keys(tools)).toEqual([...DEFAULT_MEMORY_TOOLS]);
    expect(tools.recall?.description).toBe(
      client
        .agent("a")
        .toolDefinitions()
        .find((t) => t.name === "recall")?.description,
    );
    expect(() => memoryTools({ agentId: "a", client, tools: ["recall", "no_such_tool"] })).toThrow(/no_such_tool/);
  });

  it("a model remembers through the tools and recalls it in a later call (generateText, several steps)", async () => {
    const agentId = freshAgent("ai-tools");
    const tools = memoryTools({ agentId, baseUrl, apiKey });
    const first = new MockLanguageModelV4({
      doGenerate: [
        toolCall("create_memory", { content: "The user's cat Miso is allergic to chicken." }),
        answer("Noted: Miso cannot eat chicken."),
      ],
    });
    const one = await generateText({ model: first, tools, stopWhen: stepCountIs(3), prompt: "Remember that Miso is allergic to chicken." });
    expect(one.text).toBe("Noted: Miso cannot eat chicken.");
    expect(one.steps[0]?.toolResults[0]?.output).toMatch(/node_id|Miso/);

    const second = new MockLanguageModelV4({
      doGenerate: [toolCall("recall", { query: "Miso allergic", locale: "en" }), answer("Miso is allergic to chicken.")],
    });
    const two = await generateText({ model: second, tools, stopWhen: stepCountIs(3), prompt: "What is Miso allergic to?" });
    const recalled = String(two.steps[0]?.toolResults[0]?.output);
    expect(recalled).toContain("chicken");
    // The tool's result went back to the model in the second step.
    expect(JSON.stringify(second.doGenerateCalls[1]?.prompt)).toContain("chicken");
  });

  it("a call the model got wrong comes back as the API's error for it to correct", async () => {
    const tools = memoryTools({ agentId: freshAgent("ai-wrong"), client });
    const model = new MockLanguageModelV4({ doGenerate: [toolCall("get_memory", { node_id: "twelve" }), answer("Sorry.")] });
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "Show memory twelve." });
    const output = String(result.steps[0]?.toolResults[0]?.output ?? result.steps[0]?.content.find((p) => p.type === "tool-error"));
    expect(output).toContain("validation_failed");
  });
});

describe("withMemory", () => {
  async function seeded(prefix: string): Promise<string> {
    const agentId = freshAgent(prefix);
    const agent = client.agent(agentId);
    const { task_id } = await agent.remember({
      messages: [{ role: "user", content: "My sister Clara lives in Porto and teaches violin at the conservatory.", id: "s1" }],
    });
    await agent.waitForTask(task_id);
    return agentId;
  }

  it("generateText: the context block for the latest user turn is in the system prompt; the exchange is remembered after", async () => {
    const agentId = await seeded("ai-generate");
    const writes: Promise<RememberOutput | undefined>[] = [];
    // The block as the API gives it for the question, before the exchange is remembered.
    const block = await client.agent(agentId).getContext({ query: "Where does Clara teach violin?", locale: "en" });
    expect(block.text).toContain("Porto");
    const mock = new MockLanguageModelV4({ doGenerate: answer("Clara teaches violin in Porto, at the conservatory.") });
    const model = withMemory(mock, { agentId, client, context: { locale: "en" }, waitUntil: (p) => writes.push(p) });
    const result = await generateText({ model, system: "You are a helpful assistant.", prompt: "Where does Clara teach violin?" });
    expect(result.text).toContain("Porto");

    // Appended to the caller's system prompt.
    expect(systemOf(mock.doGenerateCalls[0])).toBe(`You are a helpful assistant.\n\n${block.text}`);

    await remembered(agentId, writes);
    const stored = (await client.agent(agentId).listMemories({ limit: 50 })).items;
    const question = stored.find((m) => m.content.includes("Where does Clara teach violin?"));
    const reply = stored.find((m) => m.content.includes("Clara teaches violin in Porto, at the conservatory."));
    expect(question).toBeDefined();
    expect(reply).toBeDefined();
  });

  it("streamText: injected the same way, and the streamed answer is remembered once read to its end", async () => {
    const agentId = await seeded("ai-stream");
    const writes: Promise<RememberOutput | undefined>[] = [];
    const chunks: LanguageModelV4StreamPart[] = [
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "She teaches " },
      { type: "text-delta", id: "t", delta: "violin in Porto." },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: STOP, usage: USAGE },
    ];
    const mock = new MockLanguageModelV4({ doStream: { stream: simulateReadableStream({ chunks }) } });
    const model = withMemory(mock, { agentId, client, context: { locale: "en" }, waitUntil: (p) => writes.push(p) });
    const result = streamText({ model, prompt: "Where does Clara teach violin?" });
    expect(await result.text).toBe("She teaches violin in Porto.");
    const system = systemOf(mock.doStreamCalls[0]);
    expect(system).toContain("Porto");
    await remembered(agentId, writes);
    const stored = (await client.agent(agentId).listMemories({ limit: 50 })).items;
    expect(stored.find((m) => m.content.includes("She teaches violin in Porto."))).toBeDefined();
  });

  it("issue 34 finding 8: a generateText call of three tool steps remembers its exchange once, with its final answer", async () => {
    const agentId = await seeded("ai-steps");
    const writes: Promise<RememberOutput | undefined>[] = [];
    // Steps that say something and call a tool: each is a model call of the same user turn.
    const step = (toolName: string, input: unknown) => {
      const call = toolCall(toolName, input);
      return { ...call, content: [{ type: "text" as const, text: `Checking ${toolName}.` }, ...call.content] };
    };
    const mock = new MockLanguageModelV4({
      doGenerate: [
        step("get_focus", {}),
        step("get_profile", {}),
        step("recall", { query: "Clara violin" }),
        answer("Clara teaches violin at the conservatory in Porto."),
      ],
    });
    const model = withMemory(mock, { agentId, client, context: { locale: "en" }, waitUntil: (p) => writes.push(p) });
    const tools = memoryTools({ agentId, client, tools: ["get_focus", "get_profile", "recall"] });
    const result = await generateText({ model, tools, stopWhen: stepCountIs(6), prompt: "Where does Clara teach violin?" });
    expect(result.steps).toHaveLength(4);
    expect(mock.doGenerateCalls).toHaveLength(4);
    await remembered(agentId, writes);
    const stored = (await client.agent(agentId).listMemories({ kind: "segment", limit: 50 })).items.map((m) => m.content);
    expect(stored.filter((c) => c.includes("Where does Clara teach violin?"))).toHaveLength(1);
    expect(stored.some((c) => c.includes("Checking"))).toBe(false);
  });

  it("a memory that cannot be reached does not fail the call: the model answers without the block", async () => {
    const errors: unknown[] = [];
    const mock = new MockLanguageModelV4({ doGenerate: answer("Hello.") });
    const model = withMemory(mock, {
      agentId: "unreachable",
      baseUrl: "http://127.0.0.1:9",
      apiKey,
      retry: { retries: 0 },
      remember: false,
      onError: (e) => errors.push(e),
    });
    const result = await generateText({ model, prompt: "Hi" });
    expect(result.text).toBe("Hello.");
    expect(mock.doGenerateCalls[0]?.prompt[0]?.role).toBe("user");
    expect(errors).toHaveLength(1);
  });
});

describe("examples/ai-sdk.ts", () => {
  it("answers from the memory the wrapped model was given", async () => {
    const answer = await runAiSdkExample({ baseUrl, apiKey, agentId: freshAgent("ai-example") });
    expect(answer).toContain("Zurich");
  });
});
