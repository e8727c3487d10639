// The Workers AI provider against a fake `AI` binding: nothing here reaches the network. The fake
// records every call and answers from a script, so request shapes, batching, parsing, validation
// and the retry-then-fallback path are checked exactly.
import { describe, expect, it } from "vitest";
import { createEmbedder, createModel, requestsPerMinuteOf } from "../../../src/models/providers";
import { DEFAULT_TEXT_MODEL, isKnownTextModel } from "../../../src/models/workers-ai/model-profiles";
import productionConfig from "../../../wrangler.toml?raw";
import localConfig from "../../../wrangler.local.toml?raw";
import { PolicyModel } from "../../../src/models/policy-model";
import { MODEL, fakeAi } from "./workers-ai/fake-ai";

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
