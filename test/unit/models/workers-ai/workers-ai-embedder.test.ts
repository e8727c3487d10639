// The Workers AI provider against a fake `AI` binding: nothing here reaches the network. The fake
// records every call and answers from a script, so request shapes, batching, parsing, validation
// and the retry-then-fallback path are checked exactly.
import { describe, expect, it } from "vitest";
import { WorkersAiEmbedder } from "../../../../src/models/workers-ai/workers-ai-embedder";
import { fakeAi } from "./fake-ai";

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
