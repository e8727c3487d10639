/**
 * What a memory's text must be, wherever it comes in (remember, create, update, import): something
 * to read, at least one letter, digit, punctuation mark or symbol (not only spaces, control or
 * format characters: "\u0000\u0000\u0000" is not a memory), and no NUL, which no text holds and
 * many readers cut a string at. Length limits are the caller's.
 */
const READABLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** Why `text` cannot be a memory's text, or undefined. */
export function memoryTextProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "must not hold a NUL character (U+0000)";
  if (!READABLE.test(text)) return "must not be empty (only spaces, control or format characters)";
  return undefined;
}
