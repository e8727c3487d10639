/**
 * Token estimate without a tokenizer: the API's own (src/text/token-estimate.ts), deliberately
 * high. CJK characters 1.5 tokens, ASCII 0.34, anything else 1 per code point, rounded up. Pass
 * your model's tokenizer as `countTokens` where you have one.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/gu;
const ASCII = /[\u0000-\u007f]/g;

/**
 * The API's token estimate of a text (see the module's comment).
 *
 * @example
 * ```ts
 * import { estimateTokens } from "@agent-memory/sdk";
 * console.log(estimateTokens("Ines moved to Porto."), estimateTokens("她搬到了波尔图。"));
 * ```
 */
export function estimateTokens(text: string): number {
  if (text === "") return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  const ascii = text.match(ASCII)?.length ?? 0;
  const points = Array.from(text).length;
  return Math.ceil(cjk * 1.5 + ascii * 0.34 + (points - cjk - ascii));
}
