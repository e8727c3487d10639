/**
 * The Workers AI provider against a fake `AI` binding: nothing here reaches the network. The fake
 * records every call and answers from a script, so request shapes, batching, parsing, validation
 * and the retry-then-fallback path are checked exactly.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { RELATION } from "../../../src/vocabulary/relations";
import { LocalModel } from "../../../src/models/local/local-model";
import { createEmbedder, createModel, requestsPerMinuteOf } from "../../../src/models/providers";
import { DEFAULT_TEXT_MODEL, isKnownTextModel } from "../../../src/models/workers-ai/model-profiles";
import productionConfig from "../../../wrangler.toml?raw";
import localConfig from "../../../wrangler.local.toml?raw";
import { PolicyModel } from "../../../src/models/policy-model";
import { ResilientModel } from "../../../src/models/resilient-model";
import { RetriesExhaustedError, retryPolicy } from "../../../src/models/retry";
import type { ModelMessage } from "../../../src/models/types";
import { jsonSchemaOf, type AiBinding } from "../../../src/models/workers-ai/ai-client";
import { COMPRESS_EXAMPLES, COMPRESS_SYSTEM_PROMPT, compressAnswerSchema } from "../../../src/models/workers-ai/prompts/compress";
import { EXTRACT_EXAMPLES } from "../../../src/models/workers-ai/prompts/extract";
import { QUERY_KEYWORDS_EXAMPLES } from "../../../src/models/workers-ai/prompts/query-keywords";
import { RELATIONS_EXAMPLES, relationsAnswerSchema } from "../../../src/models/workers-ai/prompts/relations";
import { SEGMENT_EXAMPLES } from "../../../src/models/workers-ai/prompts/segment";
import {
  validateCompression,
  validateExtractions,
  validateQueryKeywords,
  validateRelations,
  validateSegments,
} from "../../../src/models/workers-ai/validate";
import { WorkersAiEmbedder } from "../../../src/models/workers-ai/workers-ai-embedder";
import { WorkersAiError } from "../../../src/models/workers-ai/workers-ai-error";
import { WorkersAiModel } from "../../../src/models/workers-ai/workers-ai-model";

/** A model of the "workers-ai-json" family (Workers AI JSON mode), max_tokens 4096. */
const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

interface Call {
  model: string;
  inputs: Record<string, unknown>;
}

/** A binding that records calls and answers with `script(callIndex, inputs)`; a thrown error rejects. */
function fakeAi(script: (call: number, inputs: Record<string, unknown>) => unknown): AiBinding & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async run(model, inputs) {
      calls.push({ model, inputs });
      return script(calls.length - 1, inputs);
    },
  };
}

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

const modelOn = (ai: AiBinding): WorkersAiModel => new WorkersAiModel(ai, { model: MODEL });
const user = (index: number, content: string, name?: string): ModelMessage =>
  name === undefined ? { index, role: "user", content } : { index, role: "user", content, name };
const LONG = "The JWT migration of the login module finished yesterday, and the whole team celebrated with pizza.";

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

describe("embeddings", () => {
  it("L2-normalises vectors, gives the empty text the zero vector without sending it, and skips empty input", async () => {
    const ai = fakeAi(() => ({ data: [[3, 4]] }));
    const embedder = new WorkersAiEmbedder(ai, { model: "@cf/baai/bge-m3", dimensions: 2 });
    expect(embedder.dimensions).toBe(2);
    expect(new WorkersAiEmbedder(ai, { model: "@cf/baai/bge-m3" }).dimensions).toBe(1024);
    const out = await embedder.embed(["", "JWT"]);
    expect(out.map((v) => Array.from(v))).toEqual([
      [0, 0],
      [Math.fround(0.6), Math.fround(0.8)],
    ]);
    expect(ai.calls).toEqual([{ model: "@cf/baai/bge-m3", inputs: { text: ["JWT"], truncate_inputs: true } }]);
    expect(await embedder.embed([])).toEqual([]);
    expect(ai.calls).toHaveLength(1);
  });

  it("rejects a vector of the wrong dimension and a wrong number of vectors", async () => {
    const short = new WorkersAiEmbedder(
      fakeAi(() => ({ data: [new Array<number>(1023).fill(1)] })),
      { model: "m" },
    );
    await expect(short.embed(["a"])).rejects.toMatchObject({ name: "WorkersAiError", code: "invalid_answer" });
    const missing = new WorkersAiEmbedder(
      fakeAi(() => ({ data: [[1, 0]] })),
      { model: "m", dimensions: 2 },
    );
    await expect(missing.embed(["a", "b"])).rejects.toMatchObject({ code: "invalid_answer" });
  });
});

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

describe("answer validation", () => {
  const messages: ModelMessage[] = [user(0, "Hi", "Alice"), { index: 1, role: "assistant", content: "Hello!" }, user(2, LONG, "Alice")];
  const segmentWith = (segments: unknown): Promise<unknown> => modelOn(fakeAi(() => ({ response: { segments } }))).segment(messages);

  it("accepts verbatim segments with speaker labels on merged lines", async () => {
    const segments = [
      { text: "Alice: Hi\nassistant: Hello!", messageIndexes: [0, 1] },
      { text: ` ${LONG} `, messageIndexes: [2] },
    ];
    expect(await segmentWith(segments)).toEqual([
      { text: "Alice: Hi\nassistant: Hello!", messageIndexes: [0, 1] },
      { text: LONG, messageIndexes: [2] },
    ]);
  });

  it("rejects a segmentation that drops, paraphrases or pads text, or has bad message indexes", async () => {
    const head = { text: "Alice: Hi\nassistant: Hello!", messageIndexes: [0, 1] };
    const invalid = { code: "invalid_answer" };
    await expect(segmentWith([head, { text: LONG.replace(" with pizza", ""), messageIndexes: [2] }])).rejects.toMatchObject(invalid);
    await expect(segmentWith([head, { text: LONG.replace("finished", "ended"), messageIndexes: [2] }])).rejects.toMatchObject(invalid);
    await expect(segmentWith([head, { text: `${LONG} It was great, everyone agreed.`, messageIndexes: [2] }])).rejects.toMatchObject(
      invalid,
    );
    await expect(
      segmentWith([
        { ...head, messageIndexes: [1, 0] },
        { text: LONG, messageIndexes: [2] },
      ]),
    ).rejects.toMatchObject(invalid);
    await expect(segmentWith([head, { text: LONG, messageIndexes: [7] }])).rejects.toMatchObject(invalid);
    await expect(segmentWith([head, { text: LONG, messageIndexes: [] }])).rejects.toMatchObject(invalid);
    await expect(segmentWith([{ text: LONG, messageIndexes: [2] }, head])).rejects.toMatchObject(invalid);
  });

  it("rejects an extraction answer of the wrong length; cuts phrases, drops blank keywords and pronoun entities", async () => {
    const one = {
      phrase: "登录模块的JWT迁移昨天已经全部顺利完成了并且庆祝",
      keywords: ["JWT", " ", "jwt", "登录模块"],
      entities: ["我", "JWT", "登录模块", "团队", "披萨"],
    };
    const ai = fakeAi((call) => ({ response: { items: call === 0 ? [one, one] : [one] } }));
    await expect(modelOn(ai).extract(["a"])).rejects.toMatchObject({ code: "invalid_answer" });
    expect(await modelOn(ai).extract(["a"])).toEqual([
      { phrase: "登录模块的JWT迁移昨天已经全部顺利完成", keywords: ["JWT", "登录模块"], entities: ["JWT", "登录模块", "团队"] },
    ]);
  });

  it("rejects a relation outside the vocabulary or a wrong count", async () => {
    const request = [{ segment: "We use JWT.", entity: "JWT" }];
    await expect(modelOn(fakeAi(() => ({ response: { relations: ["属于"] } }))).nameRelations(request)).rejects.toMatchObject({
      code: "schema_mismatch",
    });
    expect(() => validateRelations(["属于"], 1)).toThrow(/not in the vocabulary/);
    expect(() => validateRelations([RELATION.about], 2)).toThrow(/expected 2 relations, got 1/);
    expect(validateRelations([" 关于 "], 1)).toEqual(["关于"]);
  });

  it("rejects a compression over its target in code points, or an empty one", async () => {
    const compressWith = (text: string): Promise<string> => modelOn(fakeAi(() => ({ response: { text } }))).compress(LONG, 10);
    await expect(compressWith("JWT done, team party")).rejects.toMatchObject({ code: "invalid_answer" });
    await expect(compressWith("   ")).rejects.toMatchObject({ code: "invalid_answer" });
    expect(await compressWith("登录模块迁移完成")).toBe("登录模块迁移完成");
    expect(await compressWith("JWT迁移完成😀😀😀")).toBe("JWT迁移完成😀😀😀");
  });

  it("rejects empty query keywords and removes duplicates", async () => {
    const keywordsWith = (keywords: string[]): Promise<string[]> =>
      modelOn(fakeAi(() => ({ response: { keywords } }))).queryKeywords("JWT?");
    await expect(keywordsWith(["JWT", ""])).rejects.toMatchObject({ code: "invalid_answer" });
    expect(await keywordsWith(["JWT", " jwt ", "登录模块"])).toEqual(["JWT", "登录模块"]);
  });

  it("teaches only valid answers: every few-shot example passes its own validator", () => {
    for (const { input, output } of SEGMENT_EXAMPLES) {
      const asMessages = input.messages.map((m) =>
        m.speaker === m.role ? { index: m.index, role: m.role, content: m.content } : { ...m, name: m.speaker },
      );
      expect(validateSegments(asMessages, output.segments)).toEqual(output.segments);
    }
    for (const { input, output } of EXTRACT_EXAMPLES) expect(validateExtractions(output.items, input.texts.length)).toEqual(output.items);
    for (const { input, output } of RELATIONS_EXAMPLES)
      expect(validateRelations(output.relations, input.pairs.length)).toEqual(output.relations);
    for (const { input, output } of COMPRESS_EXAMPLES) expect(validateCompression(output.text, input.target)).toBe(output.text);
    for (const { output } of QUERY_KEYWORDS_EXAMPLES) expect(validateQueryKeywords(output.keywords)).toEqual(output.keywords);
  });
});

describe("retry, then fallback to the local model", () => {
  const events = () => ({ failed: vi.fn(), fellBack: vi.fn(), notRetried: vi.fn(), rateLimited: vi.fn() });

  it("retries a transient failure 1 + 3 times, then answers with the local model and reports both events", async () => {
    const ai = fakeAi(() => {
      throw new Error("network connection lost");
    });
    const fallback = new LocalModel();
    const ev = events();
    const model = new ResilientModel(
      modelOn(ai),
      fallback,
      retryPolicy(3, async () => {}),
      ev,
    );
    const expected = await fallback.compress(LONG, 40);
    expect(await model.compress(LONG, 40)).toBe(expected);
    expect(ai.calls).toHaveLength(4);
    expect(ev.failed).toHaveBeenCalledTimes(1);
    expect(ev.failed).toHaveBeenCalledWith("compress", expect.any(RetriesExhaustedError));
    expect(ev.notRetried).not.toHaveBeenCalled();
    expect(ev.fellBack).toHaveBeenCalledTimes(1);
    expect(ev.fellBack).toHaveBeenCalledWith("compress");
  });

  it("never retries a deterministic answer that failed (not JSON at temperature 0): one call, then the local model", async () => {
    const ai = fakeAi(() => ({ response: "not json at all" }));
    const ev = events();
    const model = new ResilientModel(
      modelOn(ai),
      new LocalModel(),
      retryPolicy(15, async () => {}),
      ev,
    );
    expect(await model.compress(LONG, 40)).toBe(await new LocalModel().compress(LONG, 40));
    expect(ai.calls).toHaveLength(1);
    expect(ev.notRetried).toHaveBeenCalledWith("compress", expect.objectContaining({ code: "not_json" }));
    expect(ev.failed).toHaveBeenCalledWith("compress", expect.objectContaining({ code: "not_json" }));
    expect(ev.fellBack).toHaveBeenCalledTimes(1);
  });

  it("uses the primary's answer when it succeeds on the 2nd attempt, without fallback", async () => {
    const ai = fakeAi((call) => {
      if (call === 0) throw new Error("overloaded");
      return { response: { keywords: ["JWT", "登录模块"] } };
    });
    const ev = events();
    const model = new ResilientModel(
      modelOn(ai),
      new LocalModel(),
      retryPolicy(3, async () => {}),
      ev,
    );
    expect(await model.queryKeywords("登录模块的JWT迁移什么时候完成？")).toEqual(["JWT", "登录模块"]);
    expect(ai.calls).toHaveLength(2);
    expect(ev.failed).not.toHaveBeenCalled();
    expect(ev.fellBack).not.toHaveBeenCalled();
  });
});

describe("registry", () => {
  const noAi = (provider: string) => ({
    MODEL_PROVIDER: provider,
    AI_TEXT_MODEL: MODEL,
    AI_EMBEDDING_MODEL: "@cf/baai/bge-m3",
    get AI(): never {
      throw new Error("env.AI read in a local configuration");
    },
  });

  it("never reads env.AI for the local provider", () => {
    expect(createModel(noAi("local")).name).toBe("local");
    expect(createEmbedder(noAi("local"))).toMatchObject({ name: "local-hash", dimensions: 256 });
  });

  it("builds the Workers AI providers from the configured model names", () => {
    const ai = fakeAi(() => null);
    const env = { MODEL_PROVIDER: "workers-ai", AI: ai, AI_TEXT_MODEL: MODEL, AI_EMBEDDING_MODEL: "@cf/baai/bge-m3" };
    expect(createModel(env)).toBeInstanceOf(PolicyModel);
    expect(createModel(env).name).toBe(`workers-ai:${MODEL}`);
    expect(createEmbedder(env)).toMatchObject({ name: "workers-ai:@cf/baai/bge-m3", dimensions: 1024 });
    expect(() => createModel(noAi("openai"))).toThrow('MODEL_PROVIDER must be "local" or "workers-ai", got "openai"');
  });

  it("refuses a model name that is not in the model table, and a malformed request budget", () => {
    const ai = fakeAi(() => null);
    expect(() => createModel({ MODEL_PROVIDER: "workers-ai", AI: ai, AI_TEXT_MODEL: "@cf/acme/unknown-7b" })).toThrow(
      /AI_TEXT_MODEL "@cf\/acme\/unknown-7b" is not in .*model-profiles/,
    );
    expect(() => createModel({ MODEL_PROVIDER: "workers-ai", AI: ai, AI_TEXT_MODEL: MODEL, AI_REQUESTS_PER_MINUTE: "fast" })).toThrow(
      /AI_REQUESTS_PER_MINUTE/,
    );
    expect(requestsPerMinuteOf({ AI_REQUESTS_PER_MINUTE: "30" })).toBe(30);
    expect(requestsPerMinuteOf({ AI_REQUESTS_PER_MINUTE: "" })).toBe(120);
    expect(requestsPerMinuteOf({})).toBe(120);
  });

  it("configures the default text model, which is in the model table, and a valid request budget", () => {
    for (const config of [productionConfig, localConfig]) {
      const model = /^AI_TEXT_MODEL = "([^"]+)"$/m.exec(config)?.[1] ?? "";
      expect(model).toBe(DEFAULT_TEXT_MODEL);
      expect(isKnownTextModel(model)).toBe(true);
      const perMinute = /^AI_REQUESTS_PER_MINUTE = "([^"]*)"$/m.exec(config)?.[1];
      expect(perMinute).toBe("120");
      expect(requestsPerMinuteOf({ AI_REQUESTS_PER_MINUTE: perMinute })).toBe(120);
    }
  });
});
