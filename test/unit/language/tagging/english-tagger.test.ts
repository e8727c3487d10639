// The English tagger's memory is bounded and what one text leaves behind never changes the next
// (src/language/tagging/wink-instance.ts): an isolate serves every tenant's text.
import { describe, expect, it } from "vitest";
import { englishWordsHeld, loadEnglishTagger, tagEnglish } from "../../../../src/language/tagging/english-tagger";
import { chineseTaggerBytes } from "../../../../src/language/tagging/chinese-tagger";
import { loadTaggers, tagWords } from "../../../../src/language/tagging/tagged-words";
import { HELD_MAX } from "../../../../src/language/tagging/wink-instance";

/** The n-th made-up word: letters only, none of them an English word ("zqbvex", "zqcvex", …). */
function madeUp(n: number): string {
  let letters = "";
  for (let x = n; ; x = Math.floor(x / 26) - 1) {
    letters = String.fromCharCode(97 + (x % 26)) + letters;
    if (x < 26) break;
  }
  return `zq${letters}vex`;
}

/** The n-th made-up Chinese word: two or three rare characters (jieba has no such word). */
function madeUpChinese(n: number): string {
  const rare = "龘靐齉爩鱻麤龗灪吁曱甴嘦嫑嘂圐圙兲巭恏忈";
  let word = "";
  for (let x = n; ; x = Math.floor(x / rare.length) - 1) {
    word = rare.charAt(x % rare.length) + word;
    if (x < rare.length) break;
  }
  return word;
}

const SAMPLE = "Mina met Zorblax at the Qwertle cafe on Friday, but she doesn't like its new menu.";
const WORDS = 1_000_000;
const BATCH = 500;

describe("the language library's memory", () => {
  // First in the file: the tagger starts empty (each test file has an isolate of its own).
  it("keeps no word of one text where the next looks words up: each text's unknown words are read anew, and tagged the same", async () => {
    await loadEnglishTagger();
    const alone = tagEnglish(SAMPLE);
    const added = englishWordsHeld();
    tagEnglish("Zorblax and Qwertle, Qwertle and Zorblax.");
    const held = englishWordsHeld();
    expect(tagEnglish(SAMPLE)).toEqual(alone);
    // SAMPLE's unknown words (Zorblax, Qwertle, …) were not found from either earlier reading: so
    // the time a text takes depends on that text, not on what any other text held.
    expect(added).toBeGreaterThan(0);
    expect(englishWordsHeld() - held).toBe(added);
  });

  it("holds no more for English after tagging 1,000,000 distinct made-up words than after the first 10,000, and tags a text as before", async () => {
    await loadTaggers();
    const before = tagWords(SAMPLE);
    let first = 0;
    let later = 0;
    for (let n = 0; n < WORDS; n += BATCH) {
      tagWords(Array.from({ length: BATCH }, (_, i) => madeUp(n + i)).join(" "));
      const held = englishWordsHeld();
      if (n + BATCH <= 10_000) first = Math.max(first, held);
      else later = Math.max(later, held);
    }
    // The measure sees the words: the first 10,000 filled the tagger to its bound, where it starts afresh.
    expect(first).toBeGreaterThan(HELD_MAX - 2 * BATCH);
    expect(first).toBeLessThanOrEqual(HELD_MAX);
    expect(later).toBeLessThanOrEqual(first);
    expect(tagWords(SAMPLE)).toEqual(before);
  }, 600_000);

  it("holds no more for Chinese after tagging 1,000,000 made-up words than after the first 10,000", () => {
    let first = 0;
    let later = 0;
    for (let n = 0; n < WORDS; n += BATCH) {
      tagWords(Array.from({ length: BATCH }, (_, i) => madeUpChinese(n + i)).join("，"));
      const bytes = chineseTaggerBytes();
      if (n + BATCH <= 10_000) first = Math.max(first, bytes);
      else later = Math.max(later, bytes);
    }
    expect(first).toBeGreaterThan(0);
    expect(later).toBeLessThanOrEqual(first);
  }, 600_000);
});
