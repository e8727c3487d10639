import { describe, expect, it } from "vitest";
import { composeMemory, prepareContent } from "../../../src/memory/explicit-memory";

const REFERENCE = Date.UTC(2025, 10, 5, 10, 0, 0); // Wednesday 2025-11-05

describe("relative times and composed memories (pure)", () => {
  it("composes seed 003's structure into a sentence in the caller's language", () => {
    const zh = composeMemory(
      { subject: "我", memoryType: "event", topic: "购物", object: "水果", attributes: { 时间: "昨天", 地点: "超市", 物品: "苹果,香蕉" } },
      REFERENCE,
    );
    expect(zh).toMatchObject({ content: "2025-11-04，我在超市购物：水果（物品：苹果,香蕉）", language: "zh" });
    expect(composeMemory({ subject: "小明", memoryType: "fact", topic: "喜好", object: "打篮球" }, REFERENCE).content).toBe(
      "小明的喜好是打篮球",
    );
    expect(
      composeMemory({ subject: "我", memoryType: "relation", topic: "朋友关系", object: "小明", attributes: { 程度: "好朋友" } }, REFERENCE)
        .content,
    ).toBe("我与小明的关系：朋友关系（程度：好朋友）");
    expect(composeMemory({ subject: "我", memoryType: "opinion", topic: "讨厌", object: "下雨天" }, REFERENCE).content).toBe(
      "我对下雨天的看法：讨厌",
    );
    const en = composeMemory(
      {
        subject: "Alice",
        memoryType: "event",
        topic: "had lunch with",
        object: "Bob",
        attributes: { time: "last Friday", reason: "her birthday" },
      },
      REFERENCE,
    );
    expect(en).toMatchObject({ content: "Alice had lunch with Bob on 2025-10-31 (reason: her birthday)", language: "en" });
    expect(composeMemory({ subject: "I", memoryType: "opinion", topic: "dislike", object: "rainy days" }, REFERENCE).content).toBe(
      "My view of rainy days: dislike",
    );
    expect(composeMemory({ subject: "Bob", memoryType: "fact", topic: "favourite drink", object: "green tea" }, REFERENCE).content).toBe(
      "Bob's favourite drink: green tea",
    );
    expect(prepareContent("I met Carol yesterday.", REFERENCE).content).toBe("I met Carol yesterday (2025-11-04).");
  });
});
