import { describe, expect, it } from "vitest";
import { resolveRelation } from "../../../src/vocabulary/relations";

describe("ranking and output", () => {
  it("accepts relation names in Chinese or as English aliases", () => {
    expect(resolveRelation("next")).toBe("下文");
    expect(resolveRelation("About")).toBe("关于");
    expect(resolveRelation("下文")).toBe("下文");
    expect(resolveRelation("同事")).toBe("同事");
  });
});
