/**
 * The thin typed layer over the Workers AI binding (docs/design.md §8). Everything that crosses it is
 * parsed: the envelope of an answer, the JSON inside it, and the task's own shape (zod), so a
 * malformed answer is a typed `WorkersAiError` that the caller's retry policy sees, never a cast.
 *
 * Workers AI facts relied on (developers.cloudflare.com/workers-ai/features/json-mode and the
 * model schemas in cloudflare-docs `src/content/workers-ai-models/*.json`):
 *   - text generation takes `{ messages, response_format: { type: "json_schema", json_schema },
 *     temperature, max_tokens }`; `max_tokens` defaults to only 256 on Llama 3.3, so we always set it;
 *   - the answer is `{ response }`, a string per the model schema but an already parsed object in
 *     the JSON-mode example; models served in the OpenAI shape (Qwen3, Gemma SEA-LION) answer
 *     `{ choices: [{ message: { content } }] }`; all three are accepted;
 *   - when the model cannot meet the schema the binding rejects ("JSON Mode couldn't be met").
 */
import { z } from "zod";

/**
 * The part of `env.AI` this provider uses: structural, so tests pass a fake that records calls.
 * Declared as a method (bivariant parameters) so the generated `Ai` type satisfies it.
 */
export interface AiBinding {
  run(model: string, inputs: Record<string, unknown>): Promise<unknown>;
}

export type WorkersAiErrorCode =
  /** The binding rejected (network, quota, model error, "JSON Mode couldn't be met"). */
  | "call_failed"
  /** The answer had none of the known envelopes, or an empty one. */
  | "no_answer"
  /** The answer text was not JSON. */
  | "not_json"
  /** The JSON did not match the task's schema. */
  | "schema_mismatch"
  /** The JSON matched the schema but broke a task rule (validate.ts). */
  | "invalid_answer";

export class WorkersAiError extends Error {
  override readonly name = "WorkersAiError";
  constructor(
    readonly code: WorkersAiErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** One worked example of a task: what the user sends and what the assistant should answer. */
export interface FewShot<I, O> {
  input: I;
  output: O;
}

/**
 * The system prompt, each example as a user/assistant turn, then the real input. Inputs and
 * answers are JSON on both sides, so the examples show the exact wire format the schema asks for.
 */
export function chatMessages<I, O>(system: string, examples: readonly FewShot<I, O>[], input: I): ChatMessage[] {
  return [
    { role: "system", content: system },
    ...examples.flatMap((e): ChatMessage[] => [
      { role: "user", content: JSON.stringify(e.input) },
      { role: "assistant", content: JSON.stringify(e.output) },
    ]),
    { role: "user", content: JSON.stringify(input) },
  ];
}

export interface JsonRequest<S extends z.ZodType> {
  model: string;
  messages: ChatMessage[];
  /** The answer's shape: sent as `response_format.json_schema` and used to parse the answer. */
  schema: S;
  maxTokens: number;
}

/** Sends `messages` in JSON mode at temperature 0 and returns the answer parsed by `schema`. */
export async function runJson<S extends z.ZodType>(ai: AiBinding, request: JsonRequest<S>): Promise<z.output<S>> {
  const inputs = {
    messages: request.messages,
    response_format: { type: "json_schema", json_schema: z.toJSONSchema(request.schema) },
    // Deterministic answers: the same text must yield the same memory on every retry.
    temperature: 0,
    max_tokens: request.maxTokens,
  };
  let raw: unknown;
  try {
    raw = await ai.run(request.model, inputs);
  } catch (err) {
    throw new WorkersAiError("call_failed", `${request.model}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const parsed = request.schema.safeParse(jsonOf(payloadOf(raw)));
  if (!parsed.success) {
    throw new WorkersAiError("schema_mismatch", `answer does not match the schema: ${z.prettifyError(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

const JSON_VALUE = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);
const ENVELOPE = z.union([
  z.object({ response: z.union([z.string(), JSON_VALUE]) }),
  z.object({ choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1) }),
  z.string(),
]);

/** The answer inside whichever envelope the model uses: a JSON text or an already parsed value. */
export function payloadOf(raw: unknown): unknown {
  const envelope = ENVELOPE.safeParse(raw);
  if (!envelope.success) throw new WorkersAiError("no_answer", "the model returned no answer in a known shape", { cause: envelope.error });
  const e = envelope.data;
  if (typeof e === "string") return e;
  if ("response" in e) return e.response;
  return e.choices[0]?.message.content ?? "";
}

/** A code fence some models put around JSON even in JSON mode. */
const FENCE = /^```(?:json)?\s*([\s\S]*?)\s*```$/;

/** Strings are JSON-parsed (inside a code fence if there is one); parsed values pass through. */
export function jsonOf(payload: unknown): unknown {
  if (typeof payload !== "string") return payload;
  const text = payload.trim();
  if (text === "") throw new WorkersAiError("no_answer", "the model returned an empty answer");
  try {
    return JSON.parse(FENCE.exec(text)?.[1] ?? text);
  } catch (err) {
    throw new WorkersAiError("not_json", `the answer is not JSON: ${text.slice(0, 80)}`, { cause: err });
  }
}
