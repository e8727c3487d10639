// Workers AI's platform limits, against a fake binding that enforces them (test/fakes): context
// windows (5021), output caps (answers cut at max_tokens), the per-minute rate limit (3021) and the
// request shape of each model family. Time is simulated: minutes of back-off run in milliseconds.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonSchemaOf } from "../../../../src/models/workers-ai/ai-client";
import { TEXT_MODEL_PROFILES } from "../../../../src/models/workers-ai/model-profiles";
import { compressAnswerSchema } from "../../../../src/models/workers-ai/prompts/compress";
import { buildSegmentMessages } from "../../../../src/models/workers-ai/prompts/segment";
import { requestInputs } from "../../../../src/models/workers-ai/request-shapes";
import { englishText } from "../../../fakes/long-texts";
import { GEMMA, LLAMA, setup, user } from "./fake-service";

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
