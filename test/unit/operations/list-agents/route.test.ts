import { describe, expect, it } from "vitest";
import { decodeAgentCursor, encodeAgentCursor } from "../../../../src/operations/list-agents/route";

describe("agent cursors", () => {
  it("round-trip every valid agent id and reject anything else", () => {
    for (const id of ["a", "support-bot-42", "A.b_c-9", "x".repeat(64)]) {
      const cursor = encodeAgentCursor(id);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeAgentCursor(cursor)).toBe(id);
    }
    expect(decodeAgentCursor("")).toBeUndefined();
    expect(decodeAgentCursor(encodeAgentCursor("-starts-with-dash"))).toBeUndefined();
    expect(decodeAgentCursor("a")).toBeUndefined();
  });
});
