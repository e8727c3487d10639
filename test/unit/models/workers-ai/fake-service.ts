// Workers AI's platform limits as a fake service enforces them (test/fakes): the models and the
// set-up the tests of the planner, the binding's errors, the request budget and the request shapes share.
import { expect, vi } from "vitest";
import { LocalModel } from "../../../../src/models/local/local-model";
import { RequestBudget } from "../../../../src/models/rate/request-budget";
import { ResilientModel, type ModelEvents } from "../../../../src/models/resilient-model";
import { retryPolicy } from "../../../../src/models/retry";
import { type ModelMessage, type SegmentDraft } from "../../../../src/models/types";
import { TEXT_MODEL_PROFILES, type TextModelProfile } from "../../../../src/models/workers-ai/model-profiles";
import { WorkersAiModel } from "../../../../src/models/workers-ai/workers-ai-model";
import { type Brain } from "../../../fakes/fake-brain";
import { FakeWorkersAi, type FakeModel } from "../../../fakes/fake-workers-ai";
import { SimClock } from "../../../fakes/sim-clock";

export const LLAMA = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

export const GEMMA = "@cf/google/gemma-4-26b-a4b-it";

/** The fake serves every model of the table with its documented family and context window. */
export const FAKE_MODELS: Record<string, FakeModel> = Object.fromEntries(
  Object.entries(TEXT_MODEL_PROFILES).map(([name, p]) => [name, { family: p.family, contextTokens: p.contextTokens }]),
);

export interface Setup {
  model?: string;
  /** A profile that differs from the table (e.g. one claiming a larger window than the service has). */
  profile?: TextModelProfile;
  /** Requests per minute the fake service accepts (the account's share). */
  serviceLimit?: number;
  /** The agent's own request budget per minute. */
  budget?: number;
  brain?: Brain;
}

export function setup(options: Setup = {}) {
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

export const user = (index: number, content: string): ModelMessage => ({ index, role: "user", content });

export const visible = (s: string): string => s.replace(/\s+/gu, "");

/** Every message's visible text appears exactly once, in order, in the segments that name it alone. */
export function expectVerbatim(messages: readonly ModelMessage[], segments: readonly SegmentDraft[]): void {
  for (const m of messages) {
    const own = segments.filter((s) => s.messageIndexes.length === 1 && s.messageIndexes[0] === m.index);
    expect(visible(own.map((s) => s.text).join(""))).toBe(visible(m.content));
  }
  expect(visible(segments.map((s) => s.text).join(""))).toBe(visible(messages.map((m) => m.content).join("")));
}
