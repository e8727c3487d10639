import { describe, expect, it } from "vitest";
import { codePointLength, sliceCodePoints } from "../../../src/text/code-points";

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
