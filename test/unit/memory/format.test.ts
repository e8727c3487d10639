import { describe, expect, it } from "vitest";
import { formatRecall } from "../../../src/memory/format";

describe("ranking and output", () => {
  it("renders plain text with separators and no internal detail, in both locales", () => {
    const memories = [
      { content: "昨天讨论了登录模块设计。", speaker: null },
      { content: "I adopted a dog.", speaker: "Alice" },
    ];
    expect(formatRecall(memories, [{ sourcePhrase: "登录模块" }], "zh")).toBe(
      "[记忆] 昨天讨论了登录模块设计。\n---\n[记忆] Alice: I adopted a dog.\n---\n[已遗忘] 关于「登录模块」的一段记忆已经遗忘",
    );
    expect(formatRecall([], [{ sourcePhrase: "dogs" }], "en")).toBe('[forgotten] A memory about "dogs" has been forgotten');
    expect(formatRecall([], [], "zh")).toBe("");
  });
});
