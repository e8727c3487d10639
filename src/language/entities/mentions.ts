/**
 * Query keywords and relation naming for the local model: query keywords come from the taggers,
 * as the memories' keywords and entities do; relation naming compares a name with a segment by
 * the tokenizer's normal forms.
 */
import { entityKey } from "./entity-key";
import { RELATION, type RelationName } from "../../vocabulary/relations";
import type { RelationRequest } from "../../models/types";
import { normalizeText } from "../../text/normalize";
import { tokenize } from "../tokens/tokenize";
import { tagWords, type TagMemo, type TaggedWord } from "../tagging/tagged-words";
import { isContentWord } from "../salience/analysis";
import { codePointLength } from "../../text/code-points";

const HAS_CJK = /[\p{Script=Han}\u3040-\u30ff\uac00-\ud7af]/u;

/**
 * Content words of a free-text question, in order, deduplicated by lemma (so "agency" and
 * "agencies" count once), from the same taggers and the same test of a content word as a memory's
 * keywords (src/language/salience/analysis.ts, isContentWord): question words, pronouns, light verbs and
 * interjections never appear. Display words: NFKC surface form, possessive removed, case kept
 * ("Isabella", "adoption", "agencies"). A Chinese character jieba leaves on its own is a keyword
 * only with the single characters next to it (小|白 → 小白): alone it is a fragment.
 */
export function localQueryKeywords(query: string, memo?: TagMemo): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const push = (key: string, display: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    out.push(display.normalize("NFKC").replace(/['’]s$/, ""));
  };
  const words = tagWords(query, memo);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === undefined || !isContentWord(w)) continue;
    if (w.script !== "cjk" || codePointLength(w.text) > 1) {
      push(w.lemma, w.text);
      continue;
    }
    let end = i;
    for (let next = words[end + 1]; next !== undefined && single(next) && next.start === words[end]?.end; next = words[end + 1]) end++;
    const run = query.slice(w.start, words[end]?.end ?? w.end);
    if (end > i) push(run, run);
    i = end;
  }
  return out;
}

function single(w: TaggedWord): boolean {
  return w.script === "cjk" && codePointLength(w.text) === 1 && isContentWord(w);
}

/**
 * 关于 when the segment mentions the entity, else 相关, for each request. Chinese names are found as
 * substrings of the normalised segment; Latin names as a run of consecutive word norms, so case,
 * full width and English plural or possessive do not matter ("Photos" mentions "photo") and "art"
 * is not found in "party". A segment is normalised once and tokenized at most once per call, only
 * when a cheap substring test says the name may be there; a name is tokenized once per call.
 */
export function localRelations(requests: readonly RelationRequest[]): RelationName[] {
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
