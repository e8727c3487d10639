import { describe, expect, it } from "vitest";
import { indexTerms, queryTerms } from "../../../../src/language/tokens/index-terms";

describe("query and memory terms (one analyzer)", () => {
  it("stems both sides alike and drops only function words", () => {
    expect(queryTerms("paintings")).toEqual(["paint"]);
    expect(indexTerms("She showed me her painting of a sunset")).toEqual(["show", "paint", "sunset"]);
    // Common chat words are content: how much they say is idf's business, not a list's.
    expect(queryTerms("What kind of pets did Caroline's friend feel recently, first?")).toEqual([
      "kind",
      "pet",
      "caroline",
      "friend",
      "feel",
      "recent",
      "first",
    ]);
    expect(queryTerms("How many times did they take it?")).toEqual(["many", "time", "take"]);
  });

  it("matches hyphenated and compound words by their parts", () => {
    expect(queryTerms("self-care")).toEqual(["self", "care", "selfcare"]);
    const doc = new Set(indexTerms("I make time for self care every day"));
    expect(queryTerms("self-care").filter((t) => doc.has(t))).toEqual(["self", "care"]);
    expect(new Set(indexTerms("my selfcare routine")).has("selfcare")).toBe(true);
    expect(indexTerms("it'll be fine")).toEqual(["fine"]);
  });

  it("matches Chinese words however the segmenter cut them", () => {
    const doc = new Set(indexTerms("昨天讨论了用户系统的登录模块设计"));
    for (const q of ["登录模块", "用户", "系统", "模块设计"])
      expect(
        queryTerms(q).every((t) => doc.has(t)),
        q,
      ).toBe(true);
    expect(new Set(indexTerms("获得绘画比赛优胜奖")).has("画")).toBe(true);
    // Function characters make no terms of their own.
    expect(queryTerms("我的")).toEqual([]);
  });
});
