// The Workers AI provider against a fake `AI` binding: nothing here reaches the network. The fake
// records every call and answers from a script, so request shapes, batching, parsing, validation
// and the retry-then-fallback path are checked exactly.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RELATION } from "../../../../src/vocabulary/relations";
import { createModel } from "../../../../src/models/providers";
import { jsonSchemaOf } from "../../../../src/models/workers-ai/ai-client";
import { COMPRESS_EXAMPLES, COMPRESS_SYSTEM_PROMPT, compressAnswerSchema } from "../../../../src/models/workers-ai/prompts/compress";
import { relationsAnswerSchema } from "../../../../src/models/workers-ai/prompts/relations";
import { WorkersAiEmbedder } from "../../../../src/models/workers-ai/workers-ai-embedder";
import { LONG, MODEL, fakeAi, modelOn, user } from "./fake-ai";

const textRequest = z.object({
  messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })),
  response_format: z.object({ type: z.literal("json_schema"), json_schema: z.record(z.string(), z.unknown()) }),
  temperature: z.number(),
  max_tokens: z.number(),
});

/** The JSON the model was asked about: the last user message. */
function lastInput<S extends z.ZodType>(inputs: Record<string, unknown>, schema: S): z.output<S> {
  const last = textRequest.parse(inputs).messages.at(-1);
  return schema.parse(JSON.parse(last?.content ?? "null"));
}

describe("request shape", () => {
  it("sends the configured model, the system prompt, bilingual examples, JSON mode and temperature 0", async () => {
    const ai = fakeAi(() => ({ response: '{"text":"JWT migration done"}' }));
    const model = createModel({ MODEL_PROVIDER: "workers-ai", AI: ai, AI_TEXT_MODEL: MODEL, MODEL_POLICY: "compression=workers-ai" });
    expect(model.name).toBe(`workers-ai:${MODEL}`);
    expect(await model.compress(LONG, 30)).toBe("JWT migration done");
    expect(ai.calls).toHaveLength(1);
    const [en, zh] = COMPRESS_EXAMPLES;
    expect(ai.calls[0]).toEqual({
      model: MODEL,
      inputs: {
        messages: [
          { role: "system", content: COMPRESS_SYSTEM_PROMPT },
          { role: "user", content: JSON.stringify(en?.input) },
          { role: "assistant", content: JSON.stringify(en?.output) },
          { role: "user", content: JSON.stringify(zh?.input) },
          { role: "assistant", content: JSON.stringify(zh?.output) },
          { role: "user", content: JSON.stringify({ target: 30, text: LONG }) },
        ],
        response_format: { type: "json_schema", json_schema: jsonSchemaOf(compressAnswerSchema) },
        temperature: 0,
        max_tokens: 4096,
      },
    });
  });

  it("constrains relation names to the vocabulary in the JSON schema", () => {
    expect(z.toJSONSchema(relationsAnswerSchema)).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { relations: { type: "array", items: { type: "string", enum: ["关于", "相关"] } } },
      required: ["relations"],
      additionalProperties: false,
    });
  });

  it("makes no call when there is nothing to ask", async () => {
    const ai = fakeAi(() => {
      throw new Error("unexpected call");
    });
    const model = modelOn(ai);
    expect(await model.segment([user(0, "  "), user(1, "")])).toEqual([]);
    expect(await model.extract([])).toEqual([]);
    expect(await model.nameRelations([])).toEqual([]);
    expect(await model.compress("short", 10)).toBe("short");
    expect(await model.compress(LONG, 0)).toBe("");
    expect(await model.queryKeywords("   ")).toEqual([]);
    expect(ai.calls).toHaveLength(0);
  });
});

describe("batching", () => {
  const item = z.object({ texts: z.array(z.string()) });

  it("extracts 40 texts in 3 calls of 16, 16 and 8 and reassembles the answers in order", async () => {
    const ai = fakeAi((_, inputs) => ({
      response: { items: lastInput(inputs, item).texts.map((t) => ({ phrase: `p-${t}`, keywords: [t], entities: [] })) },
    }));
    const texts = Array.from({ length: 40 }, (_, i) => `text ${i}`);
    const out = await modelOn(ai).extract(texts);
    expect(ai.calls.map((c) => lastInput(c.inputs, item).texts.length)).toEqual([16, 16, 8]);
    expect(out).toEqual(texts.map((t) => ({ phrase: `p-${t}`, keywords: [t], entities: [] })));
  });

  it("names 20 relations in 2 calls of 16 and 4, in order", async () => {
    const pairs = z.object({ pairs: z.array(z.object({ segment: z.string(), entity: z.string() })) });
    const ai = fakeAi((_, inputs) => ({
      response: JSON.stringify({
        relations: lastInput(inputs, pairs).pairs.map((p) => (p.segment.includes(p.entity) ? RELATION.about : RELATION.context)),
      }),
    }));
    const requests = Array.from({ length: 20 }, (_, i) => ({ segment: `segment ${i} about JWT`, entity: i % 2 === 0 ? "JWT" : "Alice" }));
    const out = await modelOn(ai).nameRelations(requests);
    expect(ai.calls.map((c) => lastInput(c.inputs, pairs).pairs.length)).toEqual([16, 4]);
    expect(out).toEqual(requests.map((_, i) => (i % 2 === 0 ? "关于" : "相关")));
  });

  it("embeds 250 texts in 3 calls of at most 100, truncating inputs, in order", async () => {
    const batch = z.object({ text: z.array(z.string()), truncate_inputs: z.literal(true) });
    const ai = fakeAi((_, inputs) => ({
      shape: [batch.parse(inputs).text.length, 1024],
      data: batch.parse(inputs).text.map((t) => {
        const v = new Array<number>(1024).fill(0);
        v[Number(t.slice(1))] = 2;
        return v;
      }),
    }));
    const texts = Array.from({ length: 250 }, (_, i) => `t${i}`);
    const out = await new WorkersAiEmbedder(ai, { model: "@cf/baai/bge-m3" }).embed(texts);
    expect(ai.calls.map((c) => c.model)).toEqual(["@cf/baai/bge-m3", "@cf/baai/bge-m3", "@cf/baai/bge-m3"]);
    expect(ai.calls.map((c) => batch.parse(c.inputs).text.length)).toEqual([100, 100, 50]);
    expect(out).toHaveLength(250);
    expect(out.every((v, i) => v.length === 1024 && v[i] === 1 && v.reduce((s, x) => s + x, 0) === 1)).toBe(true);
  });
});
