// The Workers AI provider against a fake `AI` binding: nothing here reaches the network. The fake
// records every call and answers from a script, so request shapes, batching, parsing, validation
// and the retry-then-fallback path are checked exactly.
import { describe, expect, it } from "vitest";
import { WorkersAiError } from "../../../../src/models/workers-ai/workers-ai-error";
import { LONG, MODEL, fakeAi, modelOn } from "./fake-ai";

describe("answer parsing", () => {
  const compressWith = (answer: unknown): Promise<string> => modelOn(fakeAi(() => answer)).compress(LONG, 30);

  it("accepts a JSON string, a parsed object, a fenced string and the OpenAI chat shape", async () => {
    expect(await compressWith({ response: '{"text":"JWT done"}' })).toBe("JWT done");
    expect(await compressWith({ response: { text: "JWT done" }, usage: { total_tokens: 9 } })).toBe("JWT done");
    expect(await compressWith({ response: '```json\n{"text":"JWT done"}\n```' })).toBe("JWT done");
    expect(await compressWith({ choices: [{ message: { role: "assistant", content: '{"text":"JWT done"}' } }] })).toBe("JWT done");
  });

  it("rejects non-JSON, an unknown envelope, an empty answer and a schema mismatch with typed errors", async () => {
    await expect(compressWith({ response: "Sure! Here is the text." })).rejects.toMatchObject({ code: "not_json" });
    await expect(compressWith({ result: { text: "x" } })).rejects.toMatchObject({ code: "no_answer" });
    await expect(compressWith({ response: "  " })).rejects.toMatchObject({ code: "no_answer" });
    await expect(compressWith({ response: { txt: "x" } })).rejects.toMatchObject({ code: "schema_mismatch" });
    await expect(compressWith(null)).rejects.toBeInstanceOf(WorkersAiError);
  });

  it("wraps a rejected binding call, keeping the cause and saying whether a retry can help", async () => {
    const rejectWith = (message: string): Promise<unknown> =>
      modelOn(
        fakeAi(() => {
          throw new Error(message);
        }),
      )
        .compress(LONG, 30)
        .catch((e: unknown) => e);
    const unmet = await rejectWith("JSON Mode couldn't be met");
    expect(unmet).toBeInstanceOf(WorkersAiError);
    expect(unmet).toMatchObject({ code: "json_unmet", retryable: false, message: `${MODEL}: JSON Mode couldn't be met` });
    expect(await rejectWith("network connection lost")).toMatchObject({ code: "call_failed", retryable: true });
    expect(await rejectWith("3007: Request timeout")).toMatchObject({ code: "timeout", retryable: true, internalCode: 3007 });
    const window = await rejectWith(
      "5021: The estimated number of input and maximum output tokens (30000) exceeded this model context window limit (24000)",
    );
    expect(window).toMatchObject({ code: "context_exceeded", retryable: false, internalCode: 5021 });
    expect(await rejectWith("InferenceUpstreamError: 5007: No such model")).toMatchObject({ code: "misconfigured", retryable: false });
    expect(await rejectWith("3036: You have used up your daily free allocation")).toMatchObject({ code: "quota_exhausted" });
  });
});
