// Workers AI's platform limits, against a fake binding that enforces them (test/fakes): context
// windows (5021), output caps (answers cut at max_tokens), the per-minute rate limit (3021) and the
// request shape of each model family. Time is simulated: minutes of back-off run in milliseconds.
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { LocalModel } from "../../../../src/models/local/local-model";
import { RequestBudget } from "../../../../src/models/rate/request-budget";
import { ResilientModel, type ModelEvents } from "../../../../src/models/resilient-model";
import { retryPolicy } from "../../../../src/models/retry";
import type { ModelMessage } from "../../../../src/models/types";
import { jsonSchemaOf } from "../../../../src/models/workers-ai/ai-client";
import { TEXT_MODEL_PROFILES, type TextModelProfile } from "../../../../src/models/workers-ai/model-profiles";
import { compressAnswerSchema } from "../../../../src/models/workers-ai/prompts/compress";
import { buildSegmentMessages } from "../../../../src/models/workers-ai/prompts/segment";
import { requestInputs } from "../../../../src/models/workers-ai/request-shapes";
import { WorkersAiModel } from "../../../../src/models/workers-ai/workers-ai-model";
import { type Brain } from "../../../fakes/fake-brain";
import { FakeWorkersAi, type FakeModel } from "../../../fakes/fake-workers-ai";
import { englishText } from "../../../fakes/long-texts";
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
