import { describe, expect, it } from "vitest";
import { asksAboutThePast } from "../../../src/memory/past-question";

describe("the pure pieces", () => {
  it("tells questions about an earlier conversation from topic questions, in English and Chinese", () => {
    for (const q of [
      "What did we talk about last time?",
      "Remind me what we discussed earlier",
      "上次我们聊了什么？",
      "之前说过的那个项目",
    ])
      expect(asksAboutThePast(q), q).toBe(true);
    for (const q of ["When is the Phoenix launch?", "Who owns the payment audit?", "登录模块用什么方案？"])
      expect(asksAboutThePast(q), q).toBe(false);
  });
});
