// A fake Workers AI binding that records every call and answers from a script, and what the provider's tests share.
import { type AiBinding } from "../../../../src/models/workers-ai/ai-client";
import { WorkersAiModel } from "../../../../src/models/workers-ai/workers-ai-model";
import { type ModelMessage } from "../../../../src/models/types";

/** A model of the "workers-ai-json" family (Workers AI JSON mode), max_tokens 4096. */
export const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

export interface Call {
  model: string;
  inputs: Record<string, unknown>;
}

/** A binding that records calls and answers with `script(callIndex, inputs)`; a thrown error rejects. */
export function fakeAi(script: (call: number, inputs: Record<string, unknown>) => unknown): AiBinding & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async run(model, inputs) {
      calls.push({ model, inputs });
      return script(calls.length - 1, inputs);
    },
  };
}

export const modelOn = (ai: AiBinding): WorkersAiModel => new WorkersAiModel(ai, { model: MODEL });

export const LONG = "The JWT migration of the login module finished yesterday, and the whole team celebrated with pizza.";

export const user = (index: number, content: string, name?: string): ModelMessage =>
  name === undefined ? { index, role: "user", content } : { index, role: "user", content, name };
