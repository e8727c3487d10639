// Workers AI's platform limits, against a fake binding that enforces them (test/fakes): context
// windows (5021), output caps (answers cut at max_tokens), the per-minute rate limit (3021) and the
// request shape of each model family. Time is simulated: minutes of back-off run in milliseconds.
import { describe, expect, it } from "vitest";
import { LocalModel } from "../../../../src/models/local/local-model";
import { TEXT_MODEL_PROFILES } from "../../../../src/models/workers-ai/model-profiles";
import { localBrain, type Brain } from "../../../fakes/fake-brain";
import { chineseText } from "../../../fakes/long-texts";
import { GEMMA, LLAMA, expectVerbatim, setup, user } from "./fake-service";

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
