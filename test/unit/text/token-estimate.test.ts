import { describe, expect, it } from "vitest";
import { estimateTokens, tokenWeight, TOKENS_PER_ASCII, TOKENS_PER_CJK, TOKENS_PER_OTHER } from "../../../src/text/token-estimate";

describe("token estimate", () => {
  it("weighs ASCII, CJK and other code points by their rates and rounds the sum up", () => {
    expect(tokenWeight("")).toBe(0);
    expect(tokenWeight("abc")).toBeCloseTo(3 * TOKENS_PER_ASCII, 10);
    expect(tokenWeight("用户")).toBeCloseTo(2 * TOKENS_PER_CJK, 10);
    expect(tokenWeight("é😀")).toBeCloseTo(2 * TOKENS_PER_OTHER, 10);
    expect(estimateTokens("abc")).toBe(Math.ceil(3 * TOKENS_PER_ASCII));
    expect(estimateTokens("Hi 用户")).toBe(Math.ceil(3 * TOKENS_PER_ASCII + 2 * TOKENS_PER_CJK));
  });
});
