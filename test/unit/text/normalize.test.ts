import { describe, expect, it } from "vitest";
import { normalizeText } from "../../../src/text/normalize";

describe("normalizeText", () => {
  it("applies NFKC, lower case and collapses whitespace", () => {
    expect(normalizeText("  ＡＬＩＣＥ \t Smith\n")).toBe("alice smith");
    expect(normalizeText("Ｈｅｌｌｏ，世界！ １２３")).toBe("hello,世界! 123");
  });
});
