import { describe, expect, it } from "vitest";
import { EmbeddingsAhead } from "../../../src/engine/embeddings-ahead";
import { LocalEmbedder } from "../../../src/models/local/local-model";
import type { Embedder } from "../../../src/models/types";
import {} from "../../fakes/digesting-ai";

describe("embeddings asked ahead of their turn", () => {
  function countingEmbedder(fail: () => boolean = () => false) {
    const local = new LocalEmbedder();
    const calls: string[][] = [];
    const embedder: Embedder = {
      name: local.name,
      dimensions: local.dimensions,
      async embed(texts) {
        calls.push(texts);
        if (fail()) throw new Error("unavailable");
        return local.embed(texts);
      },
    };
    return { embedder, calls };
  }

  it("a commit finds the vectors asked ahead and embeds only the texts nobody foresaw, in one call", async () => {
    const { embedder, calls } = countingEmbedder();
    const ahead = new EmbeddingsAhead(embedder);
    ahead.ahead(["Sam: Mina moved to Oslo.", "Mina", "Sam: Mina moved to Oslo.", ""]);
    expect(calls).toEqual([["Sam: Mina moved to Oslo.", "Mina"]]);
    const texts = ["Sam: Mina moved to Oslo.", "Oslo", "Mina"];
    expect(await ahead.embed(texts)).toEqual(await new LocalEmbedder().embed(texts));
    expect(calls).toEqual([["Sam: Mina moved to Oslo.", "Mina"], ["Oslo"]]);
  });

  it("a failed call ahead fails no commit: its texts are embedded in their turn", async () => {
    let failing = true;
    const { embedder, calls } = countingEmbedder(() => failing);
    const ahead = new EmbeddingsAhead(embedder);
    ahead.ahead(["Sam: Mina moved to Oslo."]);
    failing = false;
    expect(await ahead.embed(["Sam: Mina moved to Oslo."])).toEqual(await new LocalEmbedder().embed(["Sam: Mina moved to Oslo."]));
    expect(calls).toHaveLength(2);
  });
});
