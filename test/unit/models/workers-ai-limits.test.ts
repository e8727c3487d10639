/**
 * Workers AI's platform limits, against a fake binding that enforces them (test/fakes): context
 * windows (5021), output caps (answers cut at max_tokens), the per-minute rate limit (3021) and the
 * request shape of each model family. Time is simulated: minutes of back-off run in milliseconds.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { joinWindowSegments } from "../../../src/models/window-join";
import { createModel } from "../../../src/models/providers";
import { LocalModel } from "../../../src/models/local/local-model";
import { RequestBudget } from "../../../src/models/rate/request-budget";
import { ResilientModel, type ModelEvents } from "../../../src/models/resilient-model";
import { retryPolicy } from "../../../src/models/retry";
import type { ModelMessage, SegmentDraft } from "../../../src/models/types";
import { jsonSchemaOf, type AiBinding } from "../../../src/models/workers-ai/ai-client";
import { TEXT_MODEL_PROFILES, type TextModelProfile } from "../../../src/models/workers-ai/model-profiles";
import { compressAnswerSchema } from "../../../src/models/workers-ai/prompts/compress";
import { buildSegmentMessages } from "../../../src/models/workers-ai/prompts/segment";
import { requestInputs } from "../../../src/models/workers-ai/request-shapes";
import { WorkersAiEmbedder } from "../../../src/models/workers-ai/workers-ai-embedder";
import { WorkersAiModel } from "../../../src/models/workers-ai/workers-ai-model";
import { localBrain, type Brain } from "../../fakes/fake-brain";
import { FakeWorkersAi, type FakeModel } from "../../fakes/fake-workers-ai";
import { chineseText, englishText, unbrokenChinese } from "../../fakes/long-texts";
import { SimClock } from "../../fakes/sim-clock";

const LLAMA = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
const GEMMA = "@cf/google/gemma-4-26b-a4b-it";

/** The fake serves every model of the table with its documented family and context window. */
const FAKE_MODELS: Record<string, FakeModel> = Object.fromEntries(
  Object.entries(TEXT_MODEL_PROFILES).map(([name, p]) => [name, { family: p.family, contextTokens: p.contextTokens }]),
);

interface Setup {
  model?: string;
  /** A profile that differs from the table (e.g. one claiming a larger window than the service has). */
  profile?: TextModelProfile;
  /** Requests per minute the fake service accepts (the account's share). */
  serviceLimit?: number;
  /** The agent's own request budget per minute. */
  budget?: number;
  brain?: Brain;
}

function setup(options: Setup = {}) {
  const clock = new SimClock();
  const ai = new FakeWorkersAi({ clock, models: FAKE_MODELS, requestsPerWindow: options.serviceLimit, brain: options.brain });
  const budget = new RequestBudget({ requestsPerWindow: options.budget ?? 10_000, windowMs: 60_000, clock });
  const model = options.model ?? LLAMA;
  const primary = new WorkersAiModel(ai, { model, profile: options.profile, throttle: { budget, clock, random: () => 0 } });
  const events = { failed: vi.fn(), fellBack: vi.fn(), rateLimited: vi.fn(), notRetried: vi.fn() } satisfies ModelEvents;
  const resilient = new ResilientModel(
    primary,
    new LocalModel(),
    retryPolicy(15, (ms) => clock.sleep(ms)),
    events,
  );
  return { clock, ai, primary, resilient, events };
}

const user = (index: number, content: string): ModelMessage => ({ index, role: "user", content });
const visible = (s: string): string => s.replace(/\s+/gu, "");

/** Every message's visible text appears exactly once, in order, in the segments that name it alone. */
function expectVerbatim(messages: readonly ModelMessage[], segments: readonly SegmentDraft[]): void {
  for (const m of messages) {
    const own = segments.filter((s) => s.messageIndexes.length === 1 && s.messageIndexes[0] === m.index);
    expect(visible(own.map((s) => s.text).join(""))).toBe(visible(m.content));
  }
  expect(visible(segments.map((s) => s.text).join(""))).toBe(visible(messages.map((m) => m.content).join("")));
}

describe("long inputs are cut into windows that fit the model", () => {
  it("a 100,000-character Chinese remember that no single call could hold segments fully on Llama 3.3 (24k context)", async () => {
    const { ai, resilient, events } = setup();
    const messages = [0, 1, 2, 3].map((i) => user(i, chineseText(25_000, i * 1000)));
    // The limit is real: the whole submission in one request is refused by the service.
    const whole = requestInputs(TEXT_MODEL_PROFILES[LLAMA], {
      name: "segments",
      messages: buildSegmentMessages(messages),
      schema: {},
      maxTokens: 4096,
    });
    await expect(ai.run(LLAMA, whole)).rejects.toThrow(/^5021: .* exceeded this model context window limit \(24000\)/);
    const before = ai.calls.length;
    const segments = await resilient.segment(messages);
    const calls = ai.calls.slice(before);
    expect(calls.length).toBeGreaterThan(40);
    expect(calls.every((c) => c.outcome === "ok" && c.task === "segment")).toBe(true);
    expect(events.fellBack).not.toHaveBeenCalled();
    expectVerbatim(messages, segments);
    expect(segments.every((s, i) => i === 0 || (s.messageIndexes[0] ?? 0) >= (segments[i - 1]?.messageIndexes[0] ?? 0))).toBe(true);
  });

  it("a 120,000-character English remember segments fully on the default model (output-bound windows)", async () => {
    const { ai, resilient, events } = setup({ model: GEMMA });
    const messages = [0, 1, 2, 3, 4, 5].map((i) => user(i, englishText(20_000, i * 500)));
    const segments = await resilient.segment(messages);
    expect(ai.count("ok")).toBe(ai.calls.length);
    expect(ai.calls.length).toBeGreaterThan(6);
    expect(events.failed).not.toHaveBeenCalled();
    expectVerbatim(messages, segments);
  });

  it("keeps short exchanges, system messages and an unbroken CJK run intact around the cuts", async () => {
    const { ai, resilient, events } = setup();
    const messages: ModelMessage[] = [
      { index: 0, role: "user", content: "在吗？", name: "小王" },
      { index: 1, role: "assistant", content: "在的，请说。" },
      user(2, unbrokenChinese(9_000)),
      { index: 3, role: "system", content: "" },
      user(4, `${englishText(3_000)}\n\n${chineseText(3_000)}`),
      { index: 5, role: "assistant", content: "好的" },
    ];
    const segments = await resilient.segment(messages);
    expect(ai.count("ok")).toBe(ai.calls.length);
    expect(events.fellBack).not.toHaveBeenCalled();
    expect(segments[0]).toEqual({ text: "小王: 在吗？\nassistant: 在的，请说。", messageIndexes: [0, 1] });
    expectVerbatim(messages.slice(2), segments.slice(1));
  });

  it("plans windows a second planning leaves whole, and extraction batches within the output cap", () => {
    const { primary } = setup();
    const messages = [user(0, chineseText(12_000)), user(1, englishText(30_000))];
    const windows = primary.planner.segmentWindows(messages);
    expect(windows.length).toBeGreaterThan(4);
    for (const w of windows) expect(primary.planner.segmentWindows(w.messages)).toHaveLength(1);
    const rebuilt = messages.map((m) =>
      windows.reduce((text, w) => {
        const part = w.messages.find((p) => p.index === m.index);
        if (!part) return text;
        return text === "" ? part.content : `${text}${w.continuation?.index === m.index ? w.continuation.gap : ""}${part.content}`;
      }, ""),
    );
    expect(rebuilt).toEqual(messages.map((m) => m.content.trim()));
    const sizes = primary.planner.extractBatches(Array.from({ length: 100 }, (_, i) => chineseText(400, i)));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
  });

  it("joins a window boundary inside one message into one segment when it fits, and never drops or repeats one", () => {
    const windows = [
      { messages: [user(0, "First part.")] },
      { messages: [user(0, "Second part."), user(1, "Next message.")], continuation: { index: 0, gap: " " } },
      { messages: [user(1, "Tail.")], continuation: { index: 1, gap: "\n" } },
    ];
    const merged = joinWindowSegments(windows, [
      [{ text: "First part.", messageIndexes: [0] }],
      [
        { text: "Second part.", messageIndexes: [0] },
        { text: "Next message.", messageIndexes: [1] },
      ],
      [{ text: "Tail.", messageIndexes: [1] }],
    ]);
    expect(merged).toEqual([
      { text: "First part. Second part.", messageIndexes: [0] },
      { text: "Next message.\nTail.", messageIndexes: [1] },
    ]);
    const long = "x".repeat(150);
    const kept = joinWindowSegments(windows.slice(0, 2), [[{ text: long, messageIndexes: [0] }], [{ text: long, messageIndexes: [0] }]]);
    expect(kept).toHaveLength(2);
  });
});

describe("errors that cannot change on retry fall back at once", () => {
  const longChinese = chineseText(28_000);

  it("a context window the service refuses (5021) costs one call: no retries, the local model answers", async () => {
    // The profile claims 200k tokens, the service has 24k: the request is sent and refused.
    const lying = { ...TEXT_MODEL_PROFILES[LLAMA], contextTokens: 200_000 };
    const { ai, resilient, events } = setup({ profile: lying });
    const answer = await resilient.compress(longChinese, 1_000);
    expect(ai.calls.map((c) => c.outcome)).toEqual(["context_exceeded"]);
    expect(events.notRetried).toHaveBeenCalledWith("compress", expect.objectContaining({ code: "context_exceeded", internalCode: 5021 }));
    expect(events.fellBack).toHaveBeenCalledWith("compress");
    expect(answer).toBe(await new LocalModel().compress(longChinese, 1_000));
  });

  it("a request the estimate says cannot fit is never sent", async () => {
    const { ai, resilient, events } = setup();
    await resilient.compress(longChinese, 1_000);
    expect(ai.calls).toHaveLength(0);
    expect(events.notRetried).toHaveBeenCalledWith("compress", expect.objectContaining({ code: "context_exceeded" }));
  });

  it("an answer cut at max_tokens, or one that breaks a rule, is not asked for again", async () => {
    const rambling: Brain = async (task, input) =>
      task === "extract"
        ? { items: [{ phrase: "p", keywords: Array.from({ length: 5_000 }, (_, i) => `k${i}`), entities: [] }] }
        : localBrain()(task, input);
    const cut = setup({ model: GEMMA, brain: rambling });
    await cut.resilient.extract(["登录模块的JWT迁移"]);
    expect(cut.ai.calls.map((c) => c.outcome)).toEqual(["truncated"]);
    expect(cut.events.notRetried).toHaveBeenCalledWith("extract", expect.objectContaining({ code: "output_truncated" }));
    const tooLong: Brain = async () => ({ text: "这一段压缩结果明显超过了目标长度的限制" });
    const over = setup({ brain: tooLong });
    await over.resilient.compress(chineseText(200), 10);
    expect(over.ai.calls).toHaveLength(1);
    expect(over.events.notRetried).toHaveBeenCalledWith("compress", expect.objectContaining({ code: "invalid_answer" }));
  });

  it("a window that fails falls back alone: later windows are still asked, earlier answers are kept", async () => {
    let segmentCalls = 0;
    const flaky: Brain = async (task, input) => (task === "segment" && ++segmentCalls === 2 ? { segments: [] } : localBrain()(task, input));
    const { ai, resilient, events } = setup({ brain: flaky });
    const messages = [user(0, chineseText(8_000))];
    const segments = await resilient.segment(messages);
    expect(events.fellBack).toHaveBeenCalledTimes(1);
    expect(ai.calls.filter((c) => c.task === "segment").length).toBeGreaterThan(2);
    expectVerbatim(messages, segments);
  });
});

describe("rate limits are waited out in the limit's window", () => {
  it("a 429 storm ends in completed calls, without local fallback, one refusal per window at most", async () => {
    // The service accepts 10 requests a minute; this agent's budget would allow 100.
    const { clock, ai, resilient, events } = setup({ serviceLimit: 10, budget: 100 });
    const messages = [user(0, chineseText(20_000)), user(1, englishText(20_000))];
    const segments = await resilient.segment(messages);
    await resilient.extract(segments.map((s) => s.text));
    const ok = ai.count("ok");
    expect(ok).toBeGreaterThan(30);
    expect(events.fellBack).not.toHaveBeenCalled();
    expect(events.failed).not.toHaveBeenCalled();
    expect(ai.count("rate_limited")).toBeGreaterThan(0);
    expect(ai.count("rate_limited")).toBeLessThanOrEqual(Math.ceil(ok / 10));
    // Each refusal is answered by a wait of one whole window (the per-minute limit), never a quick retry.
    expect(clock.sleeps.every((ms) => ms >= 60_000)).toBe(true);
    expect(clock.slept).toBeGreaterThanOrEqual((Math.ceil(ok / 10) - 1) * 60_000);
    expect(events.rateLimited).toHaveBeenCalled();
    expectVerbatim(messages, segments);
  });

  it("a budget at the service's rate never meets a 429, and its waits are reported", async () => {
    const { clock, ai, resilient, events } = setup({ serviceLimit: 10, budget: 10 });
    await resilient.segment([user(0, chineseText(30_000))]);
    expect(ai.count("rate_limited")).toBe(0);
    expect(ai.count("ok")).toBeGreaterThan(10);
    const waited = events.rateLimited.mock.calls.reduce((sum, [, ms]) => sum + Number(ms), 0);
    expect(waited).toBe(clock.slept);
    expect(waited).toBeGreaterThan(0);
  });

  it("a recall's query keywords never wait: an empty budget answers with the local keywords at once", async () => {
    const { clock, ai, resilient, events } = setup({ budget: 2 });
    for (let i = 0; i < 3; i++) await resilient.queryKeywords("登录模块的JWT迁移什么时候完成？");
    expect(ai.calls).toHaveLength(2);
    expect(clock.slept).toBe(0);
    expect(events.notRetried).toHaveBeenCalledWith("queryKeywords", expect.objectContaining({ code: "rate_limited" }));
    expect(events.fellBack).toHaveBeenCalledTimes(1);
  });

  it("embeddings wait out a 429 in the window too, on their own budget", async () => {
    const clock = new SimClock();
    let refused = 0;
    const ai: AiBinding = {
      async run(_model, inputs) {
        if (refused++ === 0) throw new Error("3040: Capacity temporarily exceeded, please try again.");
        const texts = z.object({ text: z.array(z.string()) }).parse(inputs).text;
        return { data: texts.map(() => [1, 0]) };
      },
    };
    const budget = new RequestBudget({ requestsPerWindow: 1_200, windowMs: 60_000, clock });
    const embedder = new WorkersAiEmbedder(ai, { model: "@cf/baai/bge-m3", dimensions: 2, throttle: { budget, clock, random: () => 0 } });
    expect((await embedder.embed(["JWT"])).map((v) => Array.from(v))).toEqual([[1, 0]]);
    // A capacity refusal (3040) waits a quarter of the window first, not a whole one.
    expect(clock.sleeps).toEqual([15_000]);
  });

  it("the request budget is a sliding window: N per window, a hold after a 429, no wait beyond the allowed", async () => {
    const clock = new SimClock();
    const budget = new RequestBudget({ requestsPerWindow: 3, windowMs: 60_000, clock });
    for (let i = 0; i < 3; i++) expect(await budget.take(0)).toBe(0);
    await expect(budget.take(59_999)).rejects.toMatchObject({ name: "BudgetExceededError", waitMs: 60_000 });
    expect(clock.slept).toBe(0);
    clock.advance(30_000);
    expect(await budget.take(60_000)).toBe(30_000);
    budget.holdUntil(clock.now() + 90_000);
    expect(budget.waitMs()).toBe(90_000);
  });
});

describe("each model family gets its request shape", () => {
  const schema = jsonSchemaOf(compressAnswerSchema);

  it.each(Object.entries(TEXT_MODEL_PROFILES))("%s", async (name, profile) => {
    const { ai, resilient, events } = setup({ model: name });
    await resilient.compress(englishText(400), 100);
    expect(events.failed).not.toHaveBeenCalled();
    expect(ai.calls.map((c) => c.outcome)).toEqual(["ok"]);
    const inputs = ai.calls[0]?.inputs ?? {};
    const system = z.object({ messages: z.array(z.object({ content: z.string() })) }).parse(inputs).messages[0]?.content ?? "";
    expect(system.endsWith("\n/no_think")).toBe(profile.thinking === "no-think-directive");
    expect("chat_template_kwargs" in inputs).toBe(profile.thinking === "chat-template-off");
    if (profile.family === "workers-ai-json") {
      expect(inputs).toMatchObject({ response_format: { type: "json_schema", json_schema: schema }, max_tokens: profile.maxOutputTokens });
    } else if (profile.family === "guided-json") {
      expect(inputs).toMatchObject({ guided_json: schema, max_tokens: profile.maxOutputTokens });
    } else {
      expect(inputs).toMatchObject({
        response_format: { type: "json_schema", json_schema: { name: "compression", schema, strict: true } },
        max_completion_tokens: profile.maxOutputTokens,
      });
    }
  });

  it("the fake refuses another family's shape, so the checks above can fail", async () => {
    const { ai } = setup();
    const asGuided = requestInputs(
      { ...TEXT_MODEL_PROFILES[LLAMA], family: "guided-json" },
      {
        name: "compression",
        messages: buildSegmentMessages([user(0, "hi")]),
        schema,
        maxTokens: 100,
      },
    );
    await expect(ai.run(GEMMA, asGuided)).rejects.toThrow(/^3003: Incomplete request/);
    expect(ai.calls.map((c) => c.outcome)).toEqual(["bad_shape"]);
  });
});

describe("issue 34 finding 15 (confirmed): the model budget is per agent, the account's limit shared", () => {
  it("two agents' models, each built as the object builds it (createModel), start twice AI_REQUESTS_PER_MINUTE in one minute against the one account; max_retries does not raise one agent's rate", async () => {
    const clock = new SimClock();
    const ai = new FakeWorkersAi({ clock, models: FAKE_MODELS });
    const env = { MODEL_PROVIDER: "workers-ai", AI: ai, AI_TEXT_MODEL: LLAMA, AI_REQUESTS_PER_MINUTE: "5", MODEL_POLICY: "" };
    // Every operation on Workers AI, as PUT config's model_policy may ask for.
    const everything = () =>
      ({ extraction: "workers-ai", compression: "workers-ai", conflicts: "workers-ai", summaries: "workers-ai" }) as const;
    const agents = [createModel(env, everything, clock), createModel(env, everything, clock)];
    for (const model of agents) for (let i = 0; i < 5; i++) await model.queryKeywords(`question ${i} about the JWT migration`);
    // One minute, one account: 10 requests started, twice one agent's budget, none waited.
    expect(ai.calls).toHaveLength(10);
    expect(clock.slept).toBe(0);
    // One agent alone never starts more than its budget in a window, however many retries it may make.
    const { clock: own, ai: single, resilient } = setup({ serviceLimit: 1, budget: 5 });
    await resilient.segment([user(0, chineseText(6_000))]);
    const starts = single.calls.map((c) => c.at).sort((a, b) => a - b);
    for (let i = 5; i < starts.length; i++) expect((starts[i] ?? 0) - (starts[i - 5] ?? 0)).toBeGreaterThanOrEqual(60_000);
    expect(own.slept).toBeGreaterThan(0);
  });
});
