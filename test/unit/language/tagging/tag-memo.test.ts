import { describe, expect, it } from "vitest";
import { LineTagMemo } from "../../../../src/language/tagging/tag-memo";
import type { TaggedWord } from "../../../../src/language/tagging/tagged-words";

describe("LineTagMemo", () => {
  it("tags a line once and gives the same words back, keeping the 1,024 most recently used lines", () => {
    const memo = new LineTagMemo();
    let tagged = 0;
    const tag = (): readonly TaggedWord[] => {
      tagged += 1;
      return [];
    };
    const first = memo.line("line 0", tag);
    expect(memo.line("line 0", tag)).toBe(first);
    expect(tagged).toBe(1);
    for (let i = 1; i <= 1024; i++) memo.line(`line ${i}`, tag);
    expect(tagged).toBe(1025);
    memo.line("line 1024", tag); // still held
    expect(tagged).toBe(1025);
    memo.line("line 0", tag); // the oldest, dropped past the bound: tagged again
    expect(tagged).toBe(1026);
  });
});
