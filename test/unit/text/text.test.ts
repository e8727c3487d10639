import { describe, expect, it } from "vitest";
import { entityKey } from "../../../src/language/entities/entity-key";
import { codePointLength, sliceCodePoints } from "../../../src/text/code-points";
import { normalizeText } from "../../../src/text/normalize";
import { splitClauses, splitSentences } from "../../../src/language/sentences";
import { stem } from "../../../src/language/tokens/stem";
import { EN_STOP_WORDS } from "../../../src/language/tokens/stopwords-en";
import { ZH_STOP_WORDS } from "../../../src/language/tokens/stopwords-zh";
import { contentTerms, tokenize } from "../../../src/language/tokens/tokenize";

describe("code points", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("hello")).toBe(5);
    expect(codePointLength("用户系统")).toBe(4);
    expect(codePointLength("a😀b")).toBe(3);
  });

  it("slices by code points without splitting surrogate pairs", () => {
    expect(sliceCodePoints("a😀b😀c", 1, 4)).toBe("😀b😀");
    expect(sliceCodePoints("a😀b", 0, 2)).toBe("a😀");
    expect(sliceCodePoints("用户系统", 2)).toBe("系统");
    expect(sliceCodePoints("a😀b", -1)).toBe("b");
    expect(sliceCodePoints("abc", 1, 99)).toBe("bc");
  });
});

describe("normalizeText", () => {
  it("applies NFKC, lower case and collapses whitespace", () => {
    expect(normalizeText("  ＡＬＩＣＥ \t Smith\n")).toBe("alice smith");
    expect(normalizeText("Ｈｅｌｌｏ，世界！ １２３")).toBe("hello,世界! 123");
  });
});

describe("stop words", () => {
  it("lists function words, fillers and pronouns but no content words", () => {
    for (const w of ["the", "say", "get", "really", "also", "good", "i", "she", "yesterday", "what"]) {
      expect(EN_STOP_WORDS.has(w), w).toBe(true);
    }
    for (const w of ["adoption", "painting", "york", "family"]) expect(EN_STOP_WORDS.has(w), w).toBe(false);
    for (const w of ["的", "了", "是", "我", "们", "一个", "没有", "什么", "因为", "然后", "今天", "吗"]) {
      expect(ZH_STOP_WORDS.has(w), w).toBe(true);
    }
    for (const w of ["项目", "用户", "系统", "花", "猫"]) expect(ZH_STOP_WORDS.has(w), w).toBe(false);
  });
});

describe("stem", () => {
  const table: [string, string][] = [
    ["running", "run"],
    ["studies", "study"],
    ["painted", "paint"],
    ["photos", "photo"],
    ["bus", "bus"],
    ["buses", "bus"],
    ["news", "news"],
    ["agencies", "agency"],
    ["making", "make"],
    ["dancing", "dance"],
    ["stopped", "stop"],
    ["classes", "class"],
    ["boxes", "box"],
    ["movies", "movie"],
    ["finally", "final"],
    ["quickly", "quick"],
    ["family", "family"],
    ["needed", "need"],
    ["hiking", "hike"],
    ["tried", "try"],
    ["cities", "city"],
    ["changing", "change"],
    ["things", "thing"],
    ["paintings", "paint"],
    ["kids", "kid"],
    ["e-mails", "e-mail"],
    ["analysis", "analysis"],
    ["glass", "glass"],
    ["登录", "登录"],
    ["Alice", "Alice"],
  ];
  it("strips inflections conservatively", () => {
    for (const [word, expected] of table) expect(stem(word), word).toBe(expected);
  });

  it("is idempotent", () => {
    const words =
      "running studies painted photos buses agencies making excitedly heroes potatoes headaches beaches watching married happily weekly families butterflies continued arranging amazing focused hopping hoping".split(
        " ",
      );
    for (const w of [...words, ...table.map(([w]) => w)]) expect(stem(stem(w)), w).toBe(stem(w));
  });
});

describe("tokenize", () => {
  it("cuts English with apostrophes, hyphens, numbers and full-width letters", () => {
    const tokens = tokenize("Isabella's photos, don't e-mail 3.5 x ＡＬＩＣＥ!");
    expect(tokens.map((t) => [t.text, t.norm, t.script, t.stop])).toEqual([
      ["Isabella's", "isabella", "latin", false],
      ["photos", "photo", "latin", false],
      ["don't", "don't", "latin", true],
      ["e-mail", "e-mail", "latin", false],
      ["3.5", "3.5", "number", false],
      ["x", "x", "latin", false],
      ["ＡＬＩＣＥ", "alice", "latin", false],
    ]);
  });

  it("cuts Chinese with the segmenter and marks function words", () => {
    const tokens = tokenize("我今天去了公园看到了很多花");
    expect(tokens.map((t) => t.text)).toEqual(["我", "今天", "去", "了", "公园", "看到", "了", "很多", "花"]);
    expect(tokens.filter((t) => !t.stop).map((t) => t.text)).toEqual(["公园", "看到", "花"]);
    expect(tokens.every((t) => t.script === "cjk")).toBe(true);
  });

  it("handles mixed Chinese and Latin text", () => {
    expect(tokenize("我用JWT做登录").map((t) => [t.text, t.script, t.stop])).toEqual([
      ["我", "cjk", true],
      ["用", "cjk", true],
      ["JWT", "latin", false],
      ["做", "cjk", true],
      ["登录", "cjk", false],
    ]);
  });

  it("rejoins compounds the segmenter splits too finely", () => {
    expect(tokenize("登录模块使用OAuth2协议").map((t) => t.text)).toEqual(["登录", "模块", "使用", "OAuth2", "协议"]);
    expect(tokenize("服务器部署在阿里云上").map((t) => t.text)).toEqual(["服务器", "部署", "在", "阿里云", "上"]);
  });

  it("never produces punctuation or whitespace tokens", () => {
    expect(tokenize(" ，。!? ... —— \n")).toEqual([]);
  });
});

describe("contentTerms", () => {
  it("keeps stemmed English content words in order, dropping stop words and one-letter tokens", () => {
    expect(contentTerms("I researched adoption agencies for my 2 kids in 2023, a big step.")).toEqual([
      "research",
      "adoption",
      "agency",
      "kid",
      "2023",
      "step",
    ]);
  });

  it("keeps Chinese content words and meaningful single characters only", () => {
    expect(contentTerms("我女儿喜欢画画和弹钢琴，她上周参加了学校的音乐会。")).toEqual([
      "女儿",
      "喜欢",
      "画画",
      "弹",
      "钢琴",
      "参加",
      "学校",
      "音乐",
    ]);
    expect(contentTerms("我今天去了公园看到了很多花")).toEqual(["公园", "看到", "花"]);
  });

  it("keeps duplicates", () => {
    expect(contentTerms("photos and more photos")).toEqual(["photo", "photo"]);
  });
});

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

describe("entityKey", () => {
  const table: [string, string][] = [
    ["Alice", "alice"],
    ["alice", "alice"],
    ["ＡＬＩＣＥ", "alice"],
    ["Alice's", "alice"],
    ["Isabella’s", "isabella"],
    ["“Alice”", "alice"],
    ["项目的", "项目"],
    ["项目", "项目"],
    ["「用户系统」吗", "用户系统"],
    [" New   York. ", "new york"],
    ["C++", "c++"],
    ["C#", "c#"],
    ["的", ""],
    ["...", ""],
    ["  ", ""],
  ];
  it("folds case, width, possessives, quotes and trailing particles into one key", () => {
    for (const [name, key] of table) expect(entityKey(name), name).toBe(key);
  });
});
