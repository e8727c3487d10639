/**
 * Query keywords and relation naming for the local model: the two small tasks that only compare
 * words, so they share the tokenizer's normal forms.
 */
import { entityKey } from "../../text/entity-key";
import { RELATION, type RelationName } from "../../vocabulary/relations";
import type { RelationRequest } from "../types";
import { normalizeText } from "../../text/normalize";
import { isContent, tokenize } from "../../text/tokenize";

const HAS_CJK = /[\p{Script=Han}\u3040-\u30ff\uac00-\ud7af]/u;

/**
 * Content words of a free-text question, in order, deduplicated by normal form (so "agency" and
 * "agencies" count once), as display words: NFKC surface form, possessive removed, case kept
 * ("Isabella", "adoption", "agencies"). Question words (what, when, 什么, 哪里, 吗 ...) are stop words
 * and never appear.
 */
export function localQueryKeywords(query: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tokenize(query)) {
    if (!isContent(t) || seen.has(t.norm)) continue;
    seen.add(t.norm);
    out.push(t.text.normalize("NFKC").replace(/['’]s$/, ""));
  }
  return out;
}

/**
 * 关于 when the segment mentions the entity, else 相关, for each request. Chinese names are found as
 * substrings of the normalised segment; Latin names as a run of consecutive word norms, so case,
 * full width and English plural or possessive do not matter ("Photos" mentions "photo") and "art"
 * is not found in "party". A segment is tokenized at most once per call, and only when a cheap
 * substring test says the name may be there.
 */
export function localRelations(requests: readonly RelationRequest[]): RelationName[] {
  const norms = new Map<string, string[]>();
  const normsOf = (segment: string): string[] => {
    let words = norms.get(segment);
    if (words === undefined) {
      words = tokenize(segment).map((t) => t.norm);
      norms.set(segment, words);
    }
    return words;
  };
  return requests.map((r) => (mentions(r.segment, r.entity, normsOf) ? RELATION.about : RELATION.context));
}

function mentions(segment: string, entity: string, normsOf: (segment: string) => string[]): boolean {
  const key = entityKey(entity);
  if (key === "") return false;
  const flat = normalizeText(segment).replace(/\s/g, "");
  if (HAS_CJK.test(key)) return flat.includes(key.replace(/\s/g, ""));
  const needle = tokenize(key).map((t) => t.norm);
  // Every stem, less a final e/y that inflection may change ("dance"/"dancing"), must occur somewhere.
  if (needle.length === 0 || !needle.every((w) => flat.includes(w.replace(/[ey]$/, "") || w))) return false;
  const words = normsOf(segment);
  for (let i = 0; i + needle.length <= words.length; i++) {
    if (needle.every((w, j) => words[i + j] === w)) return true;
  }
  return false;
}
