/**
 * Word vectors as the semantic arm uses them (semantic-arm.ts): word2vec's binary format parsed,
 * and a text's embedding as the mean of its words' vectors, L2-normalised: words from
 * Intl.Segmenter('zh'), a word the vectors lack by its longest known parts (left to right), Latin
 * words lower-cased. Pure module.
 */

export interface WordVectors {
  dimensions: number;
  words: ReadonlyMap<string, Float32Array>;
  /** Longest word in code points, for the longest-known-part split. */
  longest: number;
}

/** Parses word2vec's binary format: "<count> <dims>\n", then per word "<word> " and dims float32 (LE). */
export function parseWord2vec(buffer: Uint8Array): WordVectors {
  const text = new TextDecoder();
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let at = buffer.indexOf(0x0a);
  const [count, dimensions] = text.decode(buffer.subarray(0, at)).trim().split(/\s+/).map(Number);
  if (!count || !dimensions) throw new Error("word2vec: no '<count> <dims>' header");
  at += 1;
  const words = new Map<string, Float32Array>();
  let longest = 0;
  const bytes = dimensions * 4;
  for (let i = 0; i < count && at < buffer.length; i++) {
    while (buffer[at] === 0x0a || buffer[at] === 0x20) at += 1;
    const space = buffer.indexOf(0x20, at);
    if (space < 0 || space + 1 + bytes > buffer.length) throw new Error(`word2vec: entry ${i} is cut short`);
    const word = text.decode(buffer.subarray(at, space));
    const vector = new Float32Array(dimensions);
    for (let d = 0; d < dimensions; d++) vector[d] = view.getFloat32(space + 1 + d * 4, true);
    words.set(word, vector);
    longest = Math.max(longest, [...word].length);
    at = space + 1 + bytes;
  }
  return { dimensions, words, longest };
}

let segmenter: Intl.Segmenter | undefined;
const HAN = /\p{Script=Han}/u;

/** The known words of `word`, longest first from the left; unknown single characters are dropped. */
export function knownParts(word: string, vectors: WordVectors): string[] {
  if (vectors.words.has(word)) return [word];
  const chars = [...word];
  const parts: string[] = [];
  let i = 0;
  while (i < chars.length) {
    let n = Math.min(vectors.longest, chars.length - i);
    while (n > 0 && !vectors.words.has(chars.slice(i, i + n).join(""))) n -= 1;
    if (n > 0) parts.push(chars.slice(i, i + n).join(""));
    i += Math.max(n, 1);
  }
  return parts;
}

/** The mean of the text's word vectors, L2-normalised (zeros when no word is known). */
export function embedWords(text: string, vectors: WordVectors): number[] {
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  const sum = new Float64Array(vectors.dimensions);
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) continue;
    const word = HAN.test(segment) ? segment : segment.toLowerCase();
    for (const part of knownParts(word, vectors)) {
      const v = vectors.words.get(part);
      if (v) for (let d = 0; d < v.length; d++) sum[d] = (sum[d] ?? 0) + (v[d] ?? 0);
    }
  }
  const norm = Math.hypot(...sum);
  return Array.from(sum, (x) => (norm > 0 ? x / norm : 0));
}
