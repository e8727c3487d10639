/**
 * The key under which an entity node is stored per agent (docs/design.md, "The model", "remember(messages)" step 3): the one place where
 * the same name is reused, so spelling variants of one name must meet. "Alice", "alice", "ＡＬＩＣＥ",
 * "Alice's" and "“Alice”" share one key, and so do "项目的" and "项目".
 */
import { normalizeText } from "../../text/normalize";

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

const LATIN_WORD = /^[a-z][a-z'’-]*$/;

/**
 * Other keys the same English name may have been stored under (docs/design.md, "Memory operations", entity
 * resolution): the singular and plural of its last word ("photos" ↔ "photo", "parties" ↔ "party",
 * "boxes" ↔ "box", "project plans" ↔ "project plan"). Other scripts have no inflection to undo.
 * Words of three letters or fewer are left alone ("bus", "gas", "ios" are not plurals of anything).
 */
export function entityKeyVariants(key: string): string[] {
  const space = key.lastIndexOf(" ");
  const head = space < 0 ? "" : key.slice(0, space + 1);
  const word = key.slice(space + 1);
  if (!LATIN_WORD.test(word) || word.length <= 3) return [];
  const out = new Set<string>();
  if (word.endsWith("ies") && word.length > 4) out.add(`${word.slice(0, -3)}y`);
  else if (/(?:ches|shes|xes|zes|sses)$/.test(word)) out.add(word.slice(0, -2));
  else if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) out.add(word.slice(0, -1));
  if (!word.endsWith("s")) {
    if (/[^aeiou]y$/.test(word)) out.add(`${word.slice(0, -1)}ies`);
    else if (/(?:ch|sh|x|z)$/.test(word)) out.add(`${word}es`);
    else out.add(`${word}s`);
  }
  out.delete(word);
  return [...out].map((w) => head + w);
}
