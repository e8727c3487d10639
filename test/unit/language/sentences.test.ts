import { describe, expect, it } from "vitest";
import { splitClauses, splitSentences } from "../../../src/language/sentences";

describe("splitSentences", () => {
  it("splits English at sentence ends, not after abbreviations or initials", () => {
    const text = "I went to the U.S. last year with Dr. Smith. It was lovely!\nWe saw J. K. Rowling... Amazing";
    const pieces = splitSentences(text);
    expect(pieces).toEqual(["I went to the U.S. last year with Dr. Smith. ", "It was lovely!\n", "We saw J. K. Rowling... ", "Amazing"]);
    expect(pieces.join("")).toBe(text);
  });

  it("splits Chinese at 。！？… and newlines", () => {
    const text = "今天天气很好。我们去爬山了！你去吗？好的…下次吧\n再见";
    const pieces = splitSentences(text);
    expect(pieces).toEqual(["今天天气很好。", "我们去爬山了！", "你去吗？", "好的…", "下次吧\n", "再见"]);
    expect(pieces.join("")).toBe(text);
  });

  it("is lossless and has no whitespace-only pieces", () => {
    for (const text of ["  Hi.  \n\n  Bye!  ", "\n\n", "", "A.B. no split", "好!我明白 ok? yes"]) {
      const pieces = splitSentences(text);
      expect(pieces.join("")).toBe(text);
      if (text.trim() !== "") expect(pieces.every((p) => p.trim() !== "")).toBe(true);
    }
  });
});

describe("splitClauses", () => {
  it("splits Chinese at ，；：、", () => {
    const text = "昨天讨论了用户系统的登录模块设计，决定采用JWT方案；前端组：支持第三方、微信登录。";
    expect(splitClauses(text)).toEqual([
      "昨天讨论了用户系统的登录模块设计，",
      "决定采用JWT方案；",
      "前端组：",
      "支持第三方、",
      "微信登录。",
    ]);
  });

  it("splits English at , ; : and before long and/but clauses, not inside numbers", () => {
    const text = "I like tea, coffee and cake; my brother likes juice and he drinks it every day but never at 10:30 or 1,000 times";
    const pieces = splitClauses(text);
    expect(pieces).toEqual([
      "I like tea, ",
      "coffee and cake; ",
      "my brother likes juice ",
      "and he drinks it every day ",
      "but never at 10:30 or 1,000 times",
    ]);
    expect(pieces.join("")).toBe(text);
  });
});
