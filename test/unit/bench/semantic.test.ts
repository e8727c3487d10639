// The semantic arm's pure parts (bench/quality/word-vectors.ts) and the Worker's benchmark embedder
// (src/models/local/http-embedder.ts), on synthetic vectors; the real vectors never enter the project.
import { afterEach, describe, expect, it, vi } from "vitest";
import { embedWords, knownParts, parseWord2vec, type WordVectors } from "../../../bench/quality/word-vectors";
import { HttpEmbedder } from "../../../src/models/local/http-embedder";
import { halvesOf, madialHalves } from "../../../bench/quality/madial-halves";
import { scoreQuestion } from "../../../bench/lib/metrics";
import { createEmbedder } from "../../../src/models/providers";

/** word2vec binary: header, then per word "<word> " + float32 LE values + "\n". */
function word2vec(entries: readonly [string, number[]][]): Uint8Array {
  const dims = entries[0]?.[1].length ?? 0;
  const parts: Uint8Array[] = [new TextEncoder().encode(`${entries.length} ${dims}\n`)];
  for (const [word, v] of entries) {
    parts.push(new TextEncoder().encode(`${word} `));
    const floats = new Uint8Array(dims * 4);
    const view = new DataView(floats.buffer);
    v.forEach((x, i) => view.setFloat32(i * 4, x, true));
    parts.push(floats, new TextEncoder().encode("\n"));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const vectors: WordVectors = parseWord2vec(
  word2vec([
    ["电影", [1, 0, 0]],
    ["看", [0, 1, 0]],
    ["朋友", [0, 0, 1]],
    ["好友", [0, 0.1, 0.99]],
    ["movie", [0.9, 0.1, 0]],
  ]),
);

describe("word vectors", () => {
  it("parses word2vec's binary format", () => {
    expect(vectors.dimensions).toBe(3);
    expect([...vectors.words.keys()]).toEqual(["电影", "看", "朋友", "好友", "movie"]);
    expect(Array.from(vectors.words.get("好友") ?? [])).toEqual([0, expect.closeTo(0.1, 6), expect.closeTo(0.99, 6)]);
    expect(vectors.longest).toBe(5);
    expect(() => parseWord2vec(new TextEncoder().encode("2 3\nab "))).toThrow(/cut short/);
  });

  it("splits an unknown word into its longest known parts, left to right", () => {
    expect(knownParts("电影", vectors)).toEqual(["电影"]);
    expect(knownParts("看电影", vectors)).toEqual(["看", "电影"]);
    expect(knownParts("新电影院", vectors)).toEqual(["电影"]);
    expect(knownParts("完全不知道", vectors)).toEqual([]);
  });

  it("embeds a text as the normalised mean of its words, zero when none is known", () => {
    const a = embedWords("和朋友看电影", vectors);
    const b = embedWords("与好友看了场电影", vectors);
    const cos = (x: number[], y: number[]) => x.reduce((s, xi, i) => s + xi * (y[i] ?? 0), 0);
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(cos(a, b)).toBeGreaterThan(0.95);
    expect(cos(embedWords("Movie", vectors), embedWords("电影", vectors))).toBeGreaterThan(0.9);
    expect(embedWords("完全不知道", vectors)).toEqual([0, 0, 0]);
  });
});

describe("the benchmark's HTTP embedder", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is chosen only on a local server given BENCH_EMBEDDER_URL", () => {
    const env = { MODEL_PROVIDER: "local", AI_EMBEDDING_MODEL: "@cf/baai/bge-m3", AI: { run: async () => ({}) } };
    expect(createEmbedder(env).name).toBe("local-hash");
    const bench = createEmbedder({ ...env, BENCH_EMBEDDER_URL: "http://127.0.0.1:1/embed", BENCH_EMBEDDER_DIMENSIONS: "3" });
    expect([bench.name, bench.dimensions]).toEqual(["bench-http", 3]);
    expect(() => createEmbedder({ ...env, BENCH_EMBEDDER_URL: "http://127.0.0.1:1/embed" })).toThrow(RangeError);
  });

  it("posts the texts and normalises the vectors it gets, refusing a wrong count or length", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      Response.json({
        vectors: [
          [3, 4, 0],
          [0, 0, 2],
        ],
      }),
    );
    const embedder = new HttpEmbedder("http://127.0.0.1:1/embed", 3);
    const out = await embedder.embed(["a", "b"]);
    expect(out.map((v) => Array.from(v))).toEqual([
      [expect.closeTo(0.6, 6), expect.closeTo(0.8, 6), 0],
      [0, 0, 1],
    ]);
    const [, init] = fetchSpy.mock.calls[0] ?? [];
    expect(init?.body).toBe(JSON.stringify({ texts: ["a", "b"] }));
    fetchSpy.mockResolvedValueOnce(Response.json({ vectors: [[1, 0, 0]] }));
    await expect(embedder.embed(["a", "b"])).rejects.toThrow(/1 vectors for 2 texts/);
    fetchSpy.mockResolvedValueOnce(Response.json({ vectors: [[1, 0]] }));
    await expect(embedder.embed(["a"])).rejects.toThrow(/2 dimensions/);
    expect(await embedder.embed([])).toEqual([]);
  });
});

describe("MADial by half (bench/quality/madial-halves.ts)", () => {
  const options = { words: (text: string) => new Set(text.split(" ")) };
  // A row whose gold is found at `rank` (0-based), or not at all.
  const row = (rank: number | null) => ({
    category: 0,
    scores: scoreQuestion(
      Array.from({ length: 10 }, (_, i) => ({ sourceIds: [i === rank ? "gold" : `x${i}`], text: "t" })),
      [{ id: "gold", text: "t" }],
      options,
    ),
  });

  it("splits items in order, the first half rounded up, and scores each half against BM25's same half", () => {
    expect(halvesOf([1, 2, 3, 4, 5])).toEqual({ tuning: [1, 2, 3], "held back": [4, 5] });
    const bm25 = [row(0), row(7), row(null), row(0)];
    const recall = [row(0), row(2), row(3), row(null)];
    const entries = madialHalves(bm25, [{ name: "default/question/semantic", rows: recall }]);
    const find = (config: string, group: string) => entries.find((e) => e.config === config && e.group === group);
    expect(find("bm25", "tuning")?.hit?.[5]).toBe(0.5);
    expect(find("default/question/semantic", "tuning")?.hit?.[5]).toBe(1);
    expect(find("default/question/semantic", "tuning")?.ratio5).toBe(2);
    expect(find("default/question/semantic", "held back")?.hit?.[5]).toBe(0.5);
    expect(find("default/question/semantic", "held back")?.ratio5).toBe(1);
    expect(find("bm25", "held back")?.items).toBe(2);
  });
});
