// Workers AI's platform limits, against a fake binding that enforces them (test/fakes): context
// windows (5021), output caps (answers cut at max_tokens), the per-minute rate limit (3021) and the
// request shape of each model family. Time is simulated: minutes of back-off run in milliseconds.
import { describe, expect, it, vi } from "vitest";
import { LocalModel } from "../../../../src/models/local/local-model";
import { RequestBudget } from "../../../../src/models/rate/request-budget";
import { ResilientModel, type ModelEvents } from "../../../../src/models/resilient-model";
import { retryPolicy } from "../../../../src/models/retry";
import type { ModelMessage, SegmentDraft } from "../../../../src/models/types";
import { TEXT_MODEL_PROFILES, type TextModelProfile } from "../../../../src/models/workers-ai/model-profiles";
import { WorkersAiModel } from "../../../../src/models/workers-ai/workers-ai-model";
import { localBrain, type Brain } from "../../../fakes/fake-brain";
import { FakeWorkersAi, type FakeModel } from "../../../fakes/fake-workers-ai";
import { chineseText } from "../../../fakes/long-texts";
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
