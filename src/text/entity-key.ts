/**
 * The key under which an entity node is stored per agent (docs/design.md §3, §4 step 3): the one place where
 * the same name is reused, so spelling variants of one name must meet. "Alice", "alice", "ＡＬＩＣＥ",
 * "Alice's" and "“Alice”" share one key, and so do "项目的" and "项目".
 */
import { normalizeText } from "./normalize";

/** Quotes, brackets, dashes and sentence punctuation that may surround a name. "#", "+", "@" and "&" stay (C#, C++). */
const EDGE =
  /^[\s\p{Pi}\p{Pf}\p{Ps}\p{Pe}\p{Pd}.,;:!?'"`*_~·…。，；：！？、]+|[\s\p{Pi}\p{Pf}\p{Ps}\p{Pe}\p{Pd}.,;:!?'"`*_~·…。，；：！？、]+$/gu;
const POSSESSIVE = /['’]s$/;
const ZH_PARTICLE = /[的了们呢吗啊吧]+$/u;
const MEANINGFUL = /[\p{L}\p{N}]/u;

/** Normalised entity name, or "" when nothing meaningful remains (callers skip those). */
export function entityKey(name: string): string {
  let key = normalizeText(name);
  for (;;) {
    const next = key.replace(EDGE, "").replace(POSSESSIVE, "").replace(ZH_PARTICLE, "").trim();
    if (next === key) break;
    key = next;
  }
  return MEANINGFUL.test(key) ? key : "";
}
