// Workers AI's platform limits, against a fake binding that enforces them (test/fakes): context
// windows (5021), output caps (answers cut at max_tokens), the per-minute rate limit (3021) and the
// request shape of each model family. Time is simulated: minutes of back-off run in milliseconds.
import { describe, expect, it, vi } from "vitest";
import { joinWindowSegments } from "../../../../src/models/window-join";
import { LocalModel } from "../../../../src/models/local/local-model";
import { RequestBudget } from "../../../../src/models/rate/request-budget";
import { ResilientModel, type ModelEvents } from "../../../../src/models/resilient-model";
import { retryPolicy } from "../../../../src/models/retry";
import type { ModelMessage, SegmentDraft } from "../../../../src/models/types";
import { TEXT_MODEL_PROFILES, type TextModelProfile } from "../../../../src/models/workers-ai/model-profiles";
import { buildSegmentMessages } from "../../../../src/models/workers-ai/prompts/segment";
import { requestInputs } from "../../../../src/models/workers-ai/request-shapes";
import { WorkersAiModel } from "../../../../src/models/workers-ai/workers-ai-model";
import { type Brain } from "../../../fakes/fake-brain";
import { FakeWorkersAi, type FakeModel } from "../../../fakes/fake-workers-ai";
import { chineseText, englishText, unbrokenChinese } from "../../../fakes/long-texts";
import { SimClock } from "../../../fakes/sim-clock";

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
