/**
 * Lengths in this product are Unicode code points (docs/design.md, "Parameters"): a Chinese character, a Latin letter
 * and an emoji made of a surrogate pair each count 1. These helpers never split a surrogate pair.
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** Number of code points in `s`. */
export function codePointLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A low surrogate that follows a high surrogate is the second half of one code point.
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const prev = s.charCodeAt(i - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) continue;
    }
    n++;
  }
  return n;
}

/**
 * Like `String.prototype.slice`, with `start`/`end` counted in code points. Negative positions count
 * from the end; positions are clamped to [0, length].
 */
export function sliceCodePoints(s: string, start: number, end?: number): string {
  if (!SURROGATE.test(s)) return s.slice(start, end);
  const points = Array.from(s);
  return points.slice(start, end).join("");
}
