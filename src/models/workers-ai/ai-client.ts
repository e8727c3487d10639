/**
 * The thin typed layer over the Workers AI binding (docs/design.md, "Models"). Everything that crosses it is
 * parsed: the envelope of an answer, the JSON inside it, and the task's own shape (zod), so a
 * malformed answer is a typed `WorkersAiError` that the caller's retry policy sees, never a cast.
 *
 * Workers AI facts relied on (its JSON mode and the models' published input and output schemas):
 *   - how a request asks for JSON depends on the model's family (request-shapes.ts);
 *   - the answer is `{ response }`, a string per the model schema but an already parsed object in
 *     the JSON-mode example; models served in the OpenAI shape (Gemma 4, GLM, Qwen3) answer
 *     `{ choices: [{ message: { content }, finish_reason }] }`; all are accepted, and
 *     `finish_reason: "length"` means the answer was cut at max_tokens;
 *   - when the model cannot meet the schema the binding rejects ("JSON Mode couldn't be met").
 */
import { z } from "zod";
import { WorkersAiError } from "./workers-ai-error";

/**
 * The part of `env.AI` this provider uses: structural, so tests pass a fake that records calls.
 * Declared as a method (bivariant parameters) so the generated `Ai` type satisfies it.
 */
export interface AiBinding {
  run(model: string, inputs: Record<string, unknown>): Promise<unknown>;
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

/** The JSON Schema of a task's answer as sent to the model (without the `$schema` dialect tag). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema);
  return rest;
}

/** The answer inside `raw`, parsed by the task's `schema`. */
export function parseAnswer<S extends z.ZodType>(raw: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(jsonOf(payloadOf(raw)));
  if (!parsed.success) {
    throw new WorkersAiError("schema_mismatch", `answer does not match the schema: ${z.prettifyError(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

const JSON_VALUE = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);
const CHOICE = z.object({ message: z.object({ content: z.string().nullable() }), finish_reason: z.string().nullish() });
const ENVELOPE = z.union([
  z.object({ response: z.union([z.string(), JSON_VALUE]) }),
  z.object({ choices: z.array(CHOICE).min(1) }),
  z.string(),
]);

/** The answer inside whichever envelope the model uses: a JSON text or an already parsed value. */
export function payloadOf(raw: unknown): unknown {
  const envelope = ENVELOPE.safeParse(raw);
  if (!envelope.success) throw new WorkersAiError("no_answer", "the model returned no answer in a known shape", { cause: envelope.error });
  const e = envelope.data;
  if (typeof e === "string") return e;
  if ("response" in e) return e.response;
  const choice = e.choices[0];
  if (choice?.finish_reason === "length") throw new WorkersAiError("output_truncated", "the answer was cut at max_tokens");
  return choice?.message.content ?? "";
}

/** A code fence some models put around JSON even in JSON mode. */
const FENCE = /^```(?:json)?\s*([\s\S]*?)\s*```$/;
/** A reasoning block a hybrid model may emit before its answer (Qwen3 writes an empty one under /no_think). */
const THINK = /^<think>[\s\S]*?<\/think>\s*/;

/** Strings are JSON-parsed (inside a code fence if there is one); parsed values pass through. */
export function jsonOf(payload: unknown): unknown {
  if (typeof payload !== "string") return payload;
  const text = payload.trim().replace(THINK, "");
  if (text === "") throw new WorkersAiError("no_answer", "the model returned an empty answer");
  try {
    return JSON.parse(FENCE.exec(text)?.[1] ?? text);
  } catch (err) {
    throw new WorkersAiError("not_json", `the answer is not JSON: ${text.slice(0, 80)}`, { cause: err });
  }
}
