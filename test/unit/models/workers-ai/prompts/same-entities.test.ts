import { describe, expect, it } from "vitest";
import { LocalModel } from "../../../../../src/models/local/local-model";
import { ResilientModel } from "../../../../../src/models/resilient-model";
import { retryPolicy } from "../../../../../src/models/retry";
import type { AiBinding } from "../../../../../src/models/workers-ai/ai-client";
import { SAME_ENTITIES_SYSTEM_PROMPT } from "../../../../../src/models/workers-ai/prompts/same-entities";
import { WorkersAiModel } from "../../../../../src/models/workers-ai/workers-ai-model";

describe("entity names judged by the model", () => {
  it("Workers AI answers one boolean per pair; a wrong answer falls back to the local rule", async () => {
    const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
    const calls: { messages: { role: string; content: string }[] }[] = [];
    const ai = (answer: (n: number) => unknown): AiBinding => ({
      async run(_model, inputs) {
        calls.push(inputs as { messages: { role: string; content: string }[] });
        const messages = inputs.messages as { content: string }[];
        const input = JSON.parse(messages.at(-1)?.content ?? "{}") as { pairs: unknown[] };
        return { response: JSON.stringify(answer(input.pairs.length)) };
      },
    });
    const pairs = [
      { known: "Robert", mentioned: "Bobby", context: "Bobby, my brother Robert, called." },
      { known: "JS", mentioned: "JavaScript", context: "" },
    ];
    const remote = new WorkersAiModel(
      ai((n) => ({ same: Array.from({ length: n }, () => true) })),
      { model: MODEL },
    );
    expect(await remote.sameEntities(pairs)).toEqual([true, true]);
    expect(calls[0]?.messages[0]).toEqual({ role: "system", content: SAME_ENTITIES_SYSTEM_PROMPT });
    const events: string[] = [];
    const resilient = new ResilientModel(
      new WorkersAiModel(
        ai(() => ({ same: [true] })),
        { model: MODEL },
      ),
      new LocalModel(),
      retryPolicy(2, async () => {}),
      { failed: () => undefined, fellBack: (op) => events.push(`fell back:${op}`) },
    );
    expect(await resilient.sameEntities(pairs)).toEqual([false, true]);
    expect(events).toEqual(["fell back:sameEntities"]);
  });
});
