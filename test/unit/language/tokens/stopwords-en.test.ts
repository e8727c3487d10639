import { describe, expect, it } from "vitest";
import { EN_STOP_WORDS } from "../../../../src/language/tokens/stopwords-en";

describe("stop words", () => {
  it("lists function words, fillers and pronouns but no content words (English)", () => {
    for (const w of ["the", "say", "get", "really", "also", "good", "i", "she", "yesterday", "what"]) {
      expect(EN_STOP_WORDS.has(w), w).toBe(true);
    }
    for (const w of ["adoption", "painting", "york", "family"]) expect(EN_STOP_WORDS.has(w), w).toBe(false);
  });
});
