/**
 * A fake `env.AI` that enforces Workers AI's documented limits, on a simulated clock:
 *   - a request must have its model family's exact shape (strict schemas below), else it is refused;
 *   - more than `requestsPerWindow` requests in any window → "3021: rate limiting: inference
 *     request per min rate reached" (the binding's per-minute 429);
 *   - input plus the requested output cap above the context window → "5021: The estimated number
 *     of input and maximum output tokens (N) exceeded this model context window limit (M)";
 *   - an answer longer than the output cap is cut there (`finish_reason: "length"` in the OpenAI
 *     shape), as a real generation stops.
 * Its tokenizer is its own (1 token per CJK character, 1 per 4 other characters), independent of
 * the estimate the code under test plans with. Errors are thrown as the binding throws them:
 * plain Errors with the "<code>: <description>" message.
 */
import { z } from "zod";
import type { AiBinding } from "../../src/models/workers-ai/ai-client";
import type { RequestFamily } from "../../src/models/workers-ai/model-profiles";
import { localBrain, taskOf, type Brain, type Task } from "./fake-brain";
import type { SimClock } from "./sim-clock";

export interface FakeModel {
  family: RequestFamily;
  contextTokens: number;
}

export interface FakeAiOptions {
  clock: SimClock;
  models: Readonly<Record<string, FakeModel>>;
  /** Accepted requests per sliding window before 3021 (Workers AI text generation: 300 per minute). */
  requestsPerWindow?: number;
  windowMs?: number;
  brain?: Brain;
}

export type Outcome = "ok" | "truncated" | "rate_limited" | "context_exceeded" | "bad_shape" | "unknown_model";

export interface FakeCall {
  model: string;
  inputs: Record<string, unknown>;
  at: number;
  outcome: Outcome;
  task?: Task;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The fake's tokenizer: a CJK character is one token, other text one token per four characters. */
export function fakeTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (CJK.test(ch)) cjk++;
    else other++;
  }
  return cjk + Math.ceil(other / 4);
}

/** The longest prefix of `text` within `tokens` fake tokens. */
function cut(text: string, tokens: number): string {
  let cjk = 0;
  let other = 0;
  let end = 0;
  for (const ch of text) {
    if (CJK.test(ch)) cjk++;
    else other++;
    if (cjk + Math.ceil(other / 4) > tokens) break;
    end += ch.length;
  }
  return text.slice(0, end);
}

const Chat = z.array(z.strictObject({ role: z.enum(["system", "user", "assistant"]), content: z.string() })).min(2);
const Temperature = z.literal(0);
const SHAPES: Record<RequestFamily, z.ZodType<{ messages: z.output<typeof Chat>; max: number }>> = {
  "workers-ai-json": z
    .strictObject({
      messages: Chat,
      response_format: z.strictObject({ type: z.literal("json_schema"), json_schema: z.record(z.string(), z.unknown()) }),
      temperature: Temperature,
      max_tokens: z.number().int().positive(),
    })
    .transform((r) => ({ messages: r.messages, max: r.max_tokens })),
  "guided-json": z
    .strictObject({
      messages: Chat,
      guided_json: z.record(z.string(), z.unknown()),
      temperature: Temperature,
      max_tokens: z.number().int().positive(),
    })
    .transform((r) => ({ messages: r.messages, max: r.max_tokens })),
  "openai-chat": z
    .strictObject({
      messages: Chat,
      response_format: z.strictObject({
        type: z.literal("json_schema"),
        json_schema: z.strictObject({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
          schema: z.record(z.string(), z.unknown()),
          strict: z.literal(true),
        }),
      }),
      temperature: Temperature,
      max_completion_tokens: z.number().int().positive(),
      chat_template_kwargs: z.strictObject({ enable_thinking: z.literal(false) }).optional(),
    })
    .transform((r) => ({ messages: r.messages, max: r.max_completion_tokens })),
};

export class FakeWorkersAi implements AiBinding {
  readonly calls: FakeCall[] = [];
  private readonly brain: Brain;

  constructor(private readonly options: FakeAiOptions) {
    this.brain = options.brain ?? localBrain();
  }

  count(outcome: Outcome): number {
    return this.calls.filter((c) => c.outcome === outcome).length;
  }

  async run(model: string, inputs: Record<string, unknown>): Promise<unknown> {
    const call: FakeCall = { model, inputs, at: this.options.clock.now(), outcome: "ok" };
    this.calls.push(call);
    const spec = this.options.models[model];
    if (!spec) return this.refuse(call, "unknown_model", `5007: No such model ${model} or task`);
    const shape = SHAPES[spec.family].safeParse(inputs);
    if (!shape.success) return this.refuse(call, "bad_shape", `3003: Incomplete request: ${z.prettifyError(shape.error)}`);
    if (this.overLimit(call.at)) return this.refuse(call, "rate_limited", "3021: rate limiting: inference request per min rate reached");
    const { messages, max } = shape.data;
    const estimated = fakeTokens(JSON.stringify(messages)) + max;
    if (estimated > spec.contextTokens) {
      const text = `5021: The estimated number of input and maximum output tokens (${estimated}) exceeded this model context window limit (${spec.contextTokens})`;
      return this.refuse(call, "context_exceeded", text);
    }
    call.task = taskOf(messages[0]?.content ?? "");
    const full = JSON.stringify(await this.brain(call.task, JSON.parse(messages.at(-1)?.content ?? "null")));
    const truncated = fakeTokens(full) > max;
    if (truncated) call.outcome = "truncated";
    const content = truncated ? cut(full, max) : full;
    if (spec.family !== "openai-chat") return { response: content, usage: { completion_tokens: fakeTokens(content) } };
    return { choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: truncated ? "length" : "stop" }] };
  }

  private overLimit(now: number): boolean {
    const limit = this.options.requestsPerWindow;
    if (limit === undefined) return false;
    const windowMs = this.options.windowMs ?? 60_000;
    const recent = this.calls.filter((c) => c.outcome !== "rate_limited" && c.at > now - windowMs && c.at <= now);
    // The call being made is already in the log: more than `limit` means it is one too many.
    return recent.length > limit;
  }

  private refuse(call: FakeCall, outcome: Outcome, message: string): never {
    call.outcome = outcome;
    throw new Error(message);
  }
}
