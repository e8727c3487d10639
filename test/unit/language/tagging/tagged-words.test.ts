import { beforeAll, describe, expect, it } from "vitest";
import { foldWidth, loadTaggers, tagWords, type TagMemo, type TaggedWord } from "../../../../src/language/tagging/tagged-words";

describe("tagged words", () => {
  beforeAll(loadTaggers);

  it("gives every word its offsets in the text as written, its sentence and one small set of classes, in both languages", () => {
    const text = "Ｍina moved to Lisbon. 她喜欢猫。";
    const words = tagWords(text);
    // Full-width letters are read folded (Ｍ as M), one code unit for one: offsets stay the input's.
    for (const w of words) expect(foldWidth(text.slice(w.start, w.end)), w.text).toBe(w.text);
    expect(words.map((w) => [w.text, w.cls, w.sentence])).toEqual([
      ["Mina", "name", 0],
      ["moved", "verb", 0],
      ["to", "function", 0],
      ["Lisbon", "name", 0],
      [".", "punct", 0],
      ["她", "pron", 1],
      ["喜欢", "verb", 1],
      ["猫", "noun", 1],
      ["。", "punct", 1],
    ]);
  });

  it("tags each line once through a memo, and copies what it gives out", () => {
    const seen: string[] = [];
    const lines = new Map<string, readonly TaggedWord[]>();
    const memo: TagMemo = {
      line(line, tag) {
        seen.push(line);
        const known = lines.get(line) ?? tag(line);
        lines.set(line, known);
        return known;
      },
    };
    const a = tagWords("Alice likes tea.\nBob likes coffee.", memo);
    const b = tagWords("Bob likes coffee.", memo);
    expect(seen).toEqual(["Alice likes tea.", "Bob likes coffee.", "Bob likes coffee."]);
    expect(b.map((w) => w.text)).toEqual(a.slice(4).map((w) => w.text));
    expect(b[0]?.start).toBe(0);
    const bob = b[0];
    if (bob) bob.cls = "other";
    expect(tagWords("Bob likes coffee.", memo)[0]?.cls).toBe("name");
  });
});
