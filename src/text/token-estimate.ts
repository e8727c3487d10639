/**
 * A tokenizer-free, deliberately high estimate of how many tokens a text costs a Workers AI text
 * model. The models' tokenizers differ (Llama 3's 128k vocabulary, Gemma's 262k, Qwen's 151k) and
 * none runs in a Worker, so windows and batches are sized with an upper bound instead: a window
 * that is a little smaller than necessary costs one extra call, one that is too large fails.
 *
 *   - CJK characters (Han, kana, hangul): 1.5 tokens each. Llama 3 spends about 1–1.4 tokens on a
 *     common Chinese character, Gemma and Qwen less; rare characters take up to 3 byte tokens.
 *   - ASCII: 0.34 tokens per character (one token per ~3 characters; English prose averages ~4,
 *     JSON punctuation and digits less).
 *   - Anything else (accented letters, Cyrillic, emoji, symbols): 1 token per code point.
 *
 * The sum is additive over code points, so the cost of a concatenation is the sum of the costs.
 */
import { codePointLength } from "./code-points";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/gu;
const ASCII = /[\u0000-\u007f]/g;

export const TOKENS_PER_CJK = 1.5;
export const TOKENS_PER_ASCII = 0.34;
export const TOKENS_PER_OTHER = 1;

/** Estimated tokens of `text`, fractional (sum before rounding), for budgets that add pieces up. */
export function tokenWeight(text: string): number {
  if (text === "") return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  const ascii = text.match(ASCII)?.length ?? 0;
  const points = codePointLength(text);
  return cjk * TOKENS_PER_CJK + ascii * TOKENS_PER_ASCII + (points - cjk - ascii) * TOKENS_PER_OTHER;
}

/** Estimated tokens of `text`, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(tokenWeight(text));
}
