import { describe, expect, it } from "vitest";
import { contentTerms, tokenize } from "../../../../src/language/tokens/tokenize";

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
