/**
 * The relation of a segment to an entity by mention (docs/design.md, "remember(messages)"): 关于
 * when the segment names it, else 相关. A name is compared with a segment by the tokenizer's normal
 * forms. The local model names relations with it, and a remember with any model.
 */
import { normalizeText } from "../../text/normalize";
import { RELATION, type RelationName } from "../../vocabulary/relations";
import { tokenize } from "../tokens/tokenize";
import { entityKey } from "./entity-key";

const HAS_CJK = /[\p{Script=Han}\u3040-\u30ff\uac00-\ud7af]/u;

/** A segment and an entity's name (a model's RelationRequest is one). */
export interface MentionRequest {
  segment: string;
  entity: string;
}

/**
 * 关于 when the segment mentions the entity, else 相关, for each request. Chinese names are found as
 * substrings of the normalised segment; Latin names as a run of consecutive word norms, so case,
 * full width and English plural or possessive do not matter ("Photos" mentions "photo") and "art"
 * is not found in "party". A segment is normalised once and tokenized at most once per call, only
 * when a cheap substring test says the name may be there; a name is tokenized once per call.
 */
export function mentionRelations(requests: readonly MentionRequest[]): RelationName[] {
  const segments = new Map<string, { flat: string; words?: string[] }>();
  const needles = new Map<string, { key: string; words: string[] }>();
  return requests.map((r) => {
    let segment = segments.get(r.segment);
    if (segment === undefined) {
      segment = { flat: normalizeText(r.segment).replace(/\s/g, "") };
      segments.set(r.segment, segment);
    }
    let needle = needles.get(r.entity);
    if (needle === undefined) {
      const key = entityKey(r.entity);
      needle = { key, words: HAS_CJK.test(key) ? [] : tokenize(key).map((t) => t.norm) };
      needles.set(r.entity, needle);
    }
    const seg = segment;
    const wordsOf = () => (seg.words ??= tokenize(r.segment).map((t) => t.norm));
    return mentions(seg.flat, needle, wordsOf) ? RELATION.about : RELATION.context;
  });
}

function mentions(flat: string, needle: { key: string; words: string[] }, wordsOf: () => string[]): boolean {
  const { key, words: wanted } = needle;
  if (key === "") return false;
  if (HAS_CJK.test(key)) return flat.includes(key.replace(/\s/g, ""));
  // Every stem, less a final e/y that inflection may change ("dance"/"dancing"), must occur somewhere.
  if (wanted.length === 0 || !wanted.every((w) => flat.includes(w.replace(/[ey]$/, "") || w))) return false;
  const words = wordsOf();
  for (let i = 0; i + wanted.length <= words.length; i++) {
    if (wanted.every((w, j) => words[i + j] === w)) return true;
  }
  return false;
}
