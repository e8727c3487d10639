/**
 * Numbers written as words: the one table of English number words (relative times: "three weeks
 * ago"; counts in the conflict rules: "two cats") and Chinese numerals up to 99 (三, 十二, 二十, 两).
 */

/** English number words, one to twelve. */
export const EN_NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/** The number an English word names ("five" → 5; lower case), else undefined. */
export function englishNumber(word: string): number | undefined {
  return EN_NUMBER_WORDS[word];
}

const ZH_DIGITS: Readonly<Record<string, number>> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** A whole number written in digits or in Chinese numerals up to 99 (三, 十二, 二十, 两), else undefined. */
export function parseSmallNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (text === "十") return 10;
  const ten = text.indexOf("十");
  if (ten < 0) return text.length === 1 ? ZH_DIGITS[text] : undefined;
  const tens = ten === 0 ? 1 : ZH_DIGITS[text.slice(0, ten)];
  const ones = ten === text.length - 1 ? 0 : ZH_DIGITS[text.slice(ten + 1)];
  return tens === undefined || ones === undefined ? undefined : tens * 10 + ones;
}
