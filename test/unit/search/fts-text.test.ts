import { describe, expect, it } from "vitest";
import { memoryNode } from "../memory-node";
import { documentFields, ftsDocument, timeTerms } from "../../../src/search/fts-text";

describe("query and memory terms (one analyzer)", () => {
  it("puts a memory's speaker, text and time in its document, each as its own field", () => {
    const node = memoryNode(1, {
      content: "Camping at the lake.",
      phrase: "camping lake",
      keywords: ["camping", "lake"],
      speaker: "Melanie",
      messageTime: Date.UTC(2023, 4, 8, 13, 56),
    });
    expect(timeTerms(node.messageTime)).toEqual(["may", "8", "2023"]);
    const fields = documentFields(node);
    expect([...fields.speaker]).toEqual(["melanie"]);
    expect([...fields.time]).toEqual(["may", "8", "2023"]);
    expect(fields.text.get("camp")).toBe(3);
    expect(ftsDocument(node)).toBe("melanie camp lake camp lake camp lake may 8 2023");
    expect(fields.length).toBe(10);
  });
});
