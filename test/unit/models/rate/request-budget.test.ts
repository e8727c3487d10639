// Workers AI's platform limits, against a fake binding that enforces them (test/fakes): context
// windows (5021), output caps (answers cut at max_tokens), the per-minute rate limit (3021) and the
// request shape of each model family. Time is simulated: minutes of back-off run in milliseconds.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createModel } from "../../../../src/models/providers";
import { RequestBudget } from "../../../../src/models/rate/request-budget";
import { type AiBinding } from "../../../../src/models/workers-ai/ai-client";
import { WorkersAiEmbedder } from "../../../../src/models/workers-ai/workers-ai-embedder";
import { FakeWorkersAi } from "../../../fakes/fake-workers-ai";
import { chineseText, englishText } from "../../../fakes/long-texts";
import { SimClock } from "../../../fakes/sim-clock";
import { FAKE_MODELS, LLAMA, expectVerbatim, setup, user } from "../workers-ai/fake-service";

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
