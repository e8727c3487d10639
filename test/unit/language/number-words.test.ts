import { describe, expect, it } from "vitest";
import { englishNumber, EN_NUMBER_WORDS, parseSmallNumber } from "../../../src/language/number-words";

describe("number words", () => {
  it("reads English number words one to twelve, in lower case, and nothing else", () => {
    expect(["one", "five", "ten", "eleven", "twelve"].map(englishNumber)).toEqual([1, 5, 10, 11, 12]);
    expect(Object.keys(EN_NUMBER_WORDS)).toHaveLength(12);
    for (const word of ["Five", "a", "an", "thirteen", "5", ""]) expect(englishNumber(word), word).toBeUndefined();
  });

  it("reads digits and Chinese numerals up to 99, and refuses what is not one", () => {
    expect(["3", "42", "三", "两", "十", "十二", "二十", "九十九"].map(parseSmallNumber)).toEqual([3, 42, 3, 2, 10, 12, 20, 99]);
    for (const text of ["", "三十十", "百", "3.5", "十三岁", "一二"]) expect(parseSmallNumber(text), text).toBeUndefined();
  });
});
