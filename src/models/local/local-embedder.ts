/**
 * Local hashed n-gram embeddings (docs/design.md, "Models"): no model weights, no network, deterministic. Texts that
 * share content words (after stemming) or Chinese character pairs get a high cosine.
 *
 * Features and weights:
 *   - Latin/other words: stemmed content terms 1.0, stop words 0.15; adjacent content terms as a
 *     bigram 0.5 (word order, "new york" vs "york new").
 *   - CJK: character bigrams of every CJK run 1.0 (0.2 when one side is a particle or pronoun) and
 *     single characters 0.25 (non-stop only, so a one-character query still lands). Bigrams cover
 *     two-character words and overlap on longer ones (数据库 → 数据, 据库), the classic indexing
 *     for Chinese retrieval; it needs no segmenter, which is the costliest step of tokenizing.
 * Each feature's weight is scaled by 1 + ln(tf) (sublinear term frequency), hashed with FNV-1a into
 * `dimensions` buckets with a hash-derived sign (signed feature hashing keeps collisions unbiased),
 * and the vector is L2-normalised. A text with no features gives the zero vector.
 */
import { normalizeText } from "../../text/normalize";
import { ZH_STOP_WORDS } from "../../language/tokens/stopwords-zh";
import { isContent, tokenize } from "../../language/tokens/tokenize";

export const EMBEDDING_DIMENSIONS = 256;

const CJK_RUN = /[\p{Script=Han}\u3040-\u30ff\uac00-\ud7af]+/gu;
const LIGHT_CHARS = new Set(Array.from("的了是在我你他她它们吗呢吧啊和与也都就很"));

export function embedText(text: string, dimensions: number): Float32Array {
  const weights = new Map<string, number>();
  const counts = new Map<string, number>();
  const add = (feature: string, weight: number): void => {
    counts.set(feature, (counts.get(feature) ?? 0) + 1);
    weights.set(feature, Math.max(weights.get(feature) ?? 0, weight));
  };
  let previous: string | undefined;
  for (const t of tokenize(text.replace(CJK_RUN, " "))) {
    const content = isContent(t);
    add("w" + t.norm, content ? 1 : 0.15);
    if (!content) {
      previous = undefined;
      continue;
    }
    if (previous !== undefined) add("b" + previous + " " + t.norm, 0.5);
    previous = t.norm;
  }
  for (const run of normalizeText(text).matchAll(CJK_RUN)) {
    const chars = Array.from(run[0]);
    chars.forEach((c, i) => {
      if (!ZH_STOP_WORDS.has(c)) add("u" + c, 0.25);
      const next = chars[i + 1];
      if (next !== undefined) add("c" + c + next, LIGHT_CHARS.has(c) || LIGHT_CHARS.has(next) ? 0.2 : 1);
    });
  }
  const vector = new Float32Array(dimensions);
  for (const [feature, weight] of weights) {
    const h = fnv1a(feature);
    const sign = mix(h) & 1 ? -1 : 1;
    const bucket = h % dimensions;
    vector[bucket] = (vector[bucket] ?? 0) + sign * weight * (1 + Math.log(counts.get(feature) ?? 1));
  }
  return normalise(vector);
}

/** 32-bit FNV-1a over UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Murmur3's finaliser: decorrelates the sign bit from the bucket bits. */
function mix(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) * inv;
  return v;
}
