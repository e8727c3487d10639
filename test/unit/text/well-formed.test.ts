import { describe, expect, it } from "vitest";
import { malformedPath, wellFormed } from "../../../src/text/well-formed";

describe("well-formed text", () => {
  it("refuses a lone surrogate, high or low, and accepts pairs", () => {
    expect(wellFormed("plain, 用户, 😀")).toBe(true);
    expect(wellFormed("a\uD800b")).toBe(false);
    expect(wellFormed("a\uDC00b")).toBe(false);
    expect(wellFormed("\uDC00\uD800")).toBe(false);
  });

  it("names the path of the first malformed string or key in a nested value", () => {
    expect(malformedPath({ a: ["ok", { b: "fine" }] })).toBeUndefined();
    expect(malformedPath({ a: ["ok", { b: "bad\uD800" }] })).toBe("a.1.b");
    expect(malformedPath({ ["k\uDC00"]: 1 })).toBe("k\uDC00");
    expect(malformedPath("\uD800")).toBe("");
  });
});
