/**
 * The keywords of a free-text question (the local model's queryKeywords): its content words, from
 * the same taggers as a memory's keywords and entities.
 */
import { codePointLength } from "../../text/code-points";
import { tagWords, type TagMemo, type TaggedWord } from "../tagging/tagged-words";
import { isContentWord } from "./content-words";

/**
 * Content words of a free-text question, in order, deduplicated by lemma (so "agency" and
 * "agencies" count once), from the same taggers and the same test of a content word as a memory's
 * keywords (content-words.ts, isContentWord): question words, pronouns, light verbs and
 * interjections never appear. Display words: NFKC surface form, possessive removed, case kept
 * ("Isabella", "adoption", "agencies"). A Chinese character jieba leaves on its own is a keyword
 * only with the single characters next to it (小|白 → 小白): alone it is a fragment.
 */
export function queryKeywords(query: string, memo?: TagMemo): string[] {
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
