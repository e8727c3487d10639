import { describe, expect, it } from "vitest";
import { QueryVectors } from "../../../src/models/query-vectors";
import type { Embedder } from "../../../src/models/types";
import {} from "../../fakes/digesting-ai";

describe("query embeddings", () => {
  it("embeds a repeated query once, keeps the most recent queries and asks again after a failure", async () => {
    const asked: string[] = [];
    let fail = false;
    const embedder: Embedder = {
      name: "counting",
      dimensions: 2,
      async embed(texts) {
        asked.push(...texts);
        if (fail) throw new Error("unavailable");
        return texts.map((t) => Float32Array.from([t.length, 1]));
      },
    };
    const vectors = new QueryVectors(embedder, 2);
    await vectors.vector("a");
    await vectors.vector("a");
    await vectors.vector("bb");
    await vectors.vector("ccc");
    await vectors.vector("a");
    expect(asked).toEqual(["a", "bb", "ccc", "a"]);
    fail = true;
    await expect(vectors.vector("dddd")).rejects.toThrow("unavailable");
    fail = false;
    expect(Array.from((await vectors.vector("dddd")) ?? [])).toEqual([4, 1]);
  });
});
