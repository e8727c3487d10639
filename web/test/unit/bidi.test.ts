/** Stored text in the page (issue 28, finding 18): bidirectional controls cannot reverse or reorder what is shown. */
import { describe, expect, it } from "vitest";
import { shownText } from "../../src/ui/dom";

describe("issue 28 finding 18: U+202E displays reversed in the web page", () => {
  it("a text with bidirectional controls is isolated and shows them; any other text is shown as it is", () => {
    expect(shownText("invoice\u202Efdp.exe")).toEqual({ text: "invoice⟨U+202E⟩fdp.exe", isolated: true });
    expect(shownText("\u2067x\u2069 \u200Fy\u061C")).toEqual({ text: "⟨U+2067⟩x⟨U+2069⟩ ⟨U+200F⟩y⟨U+061C⟩", isolated: true });
    for (const plain of ["Alice moved to Berlin.", "昨天讨论了登录模块。", "שלום עולם", "مرحبا", ""]) {
      expect(shownText(plain)).toEqual({ text: plain, isolated: false });
    }
  });
});
