import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../../src/models/local/local-model";

describe("LocalEmbedder", () => {
  const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

  it("gives similar texts a clearly higher cosine than unrelated ones, in both languages", async () => {
    const [a, b, c, d, e, f] = await new LocalEmbedder().embed([
      "I researched adoption agencies",
      "Isabella is researching an adoption agency",
      "The weather is sunny at the beach",
      "用户系统的登录模块设计",
      "登录模块采用JWT方案",
      "今天天气很好我们去爬山",
    ]);
    if (!a || !b || !c || !d || !e || !f) throw new Error("missing vectors");
    expect(cosine(a, b)).toBeGreaterThan(0.5);
    expect(cosine(a, b) - cosine(a, c)).toBeGreaterThan(0.4);
    expect(cosine(d, e)).toBeGreaterThan(0.25);
    expect(cosine(d, e) - cosine(d, f)).toBeGreaterThan(0.25);
  });

  it("returns unit vectors of the configured size, and zero for empty text", async () => {
    const embedder = new LocalEmbedder({ dimensions: 64 });
    expect(embedder.name).toBe("local-hash");
    expect(new LocalEmbedder().dimensions).toBe(256);
    const [v, empty] = await embedder.embed(["登录模块 login module", "  "]);
    expect(v?.length).toBe(64);
    expect(cosine(v ?? new Float32Array(), v ?? new Float32Array())).toBeCloseTo(1, 5);
    expect(empty?.every((x) => x === 0)).toBe(true);
    expect(() => new LocalEmbedder({ dimensions: 0 })).toThrow(RangeError);
  });
});
