import { describe, expect, it } from "vitest";
import { ZH_STOP_WORDS } from "../../../../src/language/tokens/stopwords-zh";

describe("stop words", () => {
  it("lists function words, fillers and pronouns but no content words (Chinese)", () => {
    for (const w of ["的", "了", "是", "我", "们", "一个", "没有", "什么", "因为", "然后", "今天", "吗"]) {
      expect(ZH_STOP_WORDS.has(w), w).toBe(true);
    }
    for (const w of ["项目", "用户", "系统", "花", "猫"]) expect(ZH_STOP_WORDS.has(w), w).toBe(false);
  });
});
