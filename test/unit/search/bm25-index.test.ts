import { describe, expect, it } from "vitest";
import { Bm25Index } from "../../../src/search/bm25-index";

describe("BM25 with the agent's own statistics", () => {
  it("scores exactly by Okapi BM25 over the agent's documents, kept in step with changes", () => {
    const index = new Bm25Index();
    const docs: Record<number, string> = { 1: "rex puppi shelter", 2: "rex river river ball", 3: "sister berlin", 4: "苹果 红色 苹果" };
    for (const [id, text] of Object.entries(docs)) index.add(Number(id), text);
    const expected = (query: string[]) => {
      const all = Object.entries(docs).map(([id, text]) => [Number(id), text.split(" ")] as const);
      const avg = all.reduce((n, [, t]) => n + t.length, 0) / all.length;
      return all
        .map(([id, tokens]) => {
          let score = 0;
          let hit = false;
          for (const q of query) {
            const tf = tokens.filter((t) => t === q).length;
            if (tf === 0) continue;
            hit = true;
            const df = all.filter(([, t]) => t.includes(q)).length;
            const idf = Math.log(1 + (all.length - df + 0.5) / (df + 0.5));
            score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * tokens.length) / avg));
          }
          return { id, score, hit };
        })
        .filter((d) => d.hit)
        .sort((a, b) => b.score - a.score || b.id - a.id)
        .map(({ id, score }) => ({ id, score }));
    };
    const close = (got: { id: number; score: number }[], want: { id: number; score: number }[]) => {
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]?.score ?? NaN, 12));
    };
    close(
      index.search(["rex", "river"], 10, () => true),
      expected(["rex", "river"]),
    );
    close(
      index.search(["苹果"], 10, () => true),
      expected(["苹果"]),
    );
    expect(index.search(["rex"], 10, (id) => id !== 1).map((h) => h.id)).toEqual([2]);
    // Replace and remove: the statistics follow.
    docs[2] = "ball";
    index.add(2, docs[2]);
    delete docs[3];
    index.remove(3);
    close(
      index.search(["rex", "ball"], 10, () => true),
      expected(["rex", "ball"]),
    );
    expect(index.size).toBe(3);
  });

  it("builds at once (Bm25Index.of) the very index that adding each document builds", () => {
    // Terms as the analyzer writes them, and some it does not: case, hyphens, apostrophes, final sigma, Chinese.
    const vocabulary = ["rex", "River", "o'neil", "well-known", "ΟΔΟΣ", "苹果", "红色", "7", "3.5", "naïve", "x", "ÉCOLE"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const docs: [number, string][] = Array.from({ length: 60 }, (_, i) => [
      i + 1,
      Array.from({ length: 1 + Math.floor(next() * 12) }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(" "),
    ]);
    const one = new Bm25Index();
    for (const [id, terms] of docs) one.add(id, terms);
    const built = Bm25Index.of(docs);
    const tokens = [...new Set(docs.flatMap(([, terms]) => terms.toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u)))].filter((t) => t !== "");
    expect(built.size).toBe(one.size);
    expect(built.statistics(tokens)).toEqual(one.statistics(tokens));
    for (const query of [["rex"], ["o'neil", "river"], ["well-known"], ["οδοσ", "οδος"], ["苹果", "3.5"]]) {
      expect(built.search(query, 10, () => true)).toEqual(one.search(query, 10, () => true));
    }
    for (const token of tokens) expect([...built.withToken(token)]).toEqual([...one.withToken(token)]);
  });

  it("reads from its packed arrays (a wake from the object's copy) exactly as from its maps, and after changes too", () => {
    const vocabulary = ["rex", "river", "ball", "苹果", "红色", "paris", "berlin", "7", "o'neil", "well-known", "x"];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const doc = () => Array.from({ length: Math.floor(next() * 9) }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(" ");
    const queries = [["rex"], ["river", "ball"], ["o'neil"], ["well-known", "苹果"], ["nowhere"], ["x", "7", "paris"]];
    const same = (a: Bm25Index, b: Bm25Index, when: string) => {
      const tokens = [...vocabulary, "o", "neil", "well", "known", "nowhere"];
      expect(b.size, when).toBe(a.size);
      expect(b.statistics(tokens), when).toEqual(a.statistics(tokens));
      for (const query of queries)
        expect(
          b.search(query, 50, (id) => id % 5 !== 0),
          when,
        ).toEqual(a.search(query, 50, (id) => id % 5 !== 0));
      for (const token of tokens)
        expect(
          [...b.withToken(token)].sort((x, y) => x - y),
          when,
        ).toEqual([...a.withToken(token)].sort((x, y) => x - y));
    };
    for (let round = 0; round < 5; round++) {
      const maps = new Bm25Index();
      for (let id = 1; id <= 80; id++) maps.add(id, doc());
      const packed = Bm25Index.fromPacked(maps.pack());
      same(maps, packed, `round ${round}, packed`);
      expect(packed.pack()).toEqual(maps.pack());
      // Changes: the packed index builds its maps, then follows them as the other does.
      for (let change = 0; change < 40; change++) {
        const id = 1 + Math.floor(next() * 100);
        if (next() < 0.4) {
          maps.remove(id);
          packed.remove(id);
        } else {
          const terms = doc();
          maps.add(id, terms);
          packed.add(id, terms);
        }
      }
      same(maps, packed, `round ${round}, after changes`);
      expect(packed.pack()).toEqual(maps.pack());
    }
    expect(Bm25Index.fromPacked(new Bm25Index().pack()).search(["rex"], 5, () => true)).toEqual([]);
  });
});
