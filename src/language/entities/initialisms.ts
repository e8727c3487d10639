/**
 * Initialisms, the judgement of entity names the local model makes (docs/design.md, "Memory operations", entity resolution): a rule over
 * letters, no world knowledge. A short name written in capitals (2–6 letters or digits: "JS",
 * "NYC") names the same thing as a longer name whose initials it is: the capitals of a camel-case
 * word ("JavaScript" → JS, "TypeScript" → TS) or the first letters of its words, short function
 * words left out ("New York City" → NYC, "Bank of America" → BA or BOA). Anything else is judged
 * different: the Workers AI provider is asked with world knowledge ("Bobby" and "Robert").
 */

const ACRONYM = /^[A-Z][A-Z0-9]{1,5}$/;
const FUNCTION_WORDS = new Set(["of", "the", "and", "for", "de", "la", "du", "von", "van"]);

/** The initialisms a long name may be shortened to (upper case), or none. */
export function initialismsOf(name: string): string[] {
  const words = name
    .trim()
    .split(/[\s\-_/.]+/)
    .filter((w) => /^[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) return [];
  const out = new Set<string>();
  if (words.length === 1) {
    const capitals = [...(words[0] ?? "")].filter((ch) => /\p{Lu}/u.test(ch)).join("");
    if (capitals.length >= 2) out.add(capitals);
    return [...out];
  }
  const first = (ws: readonly string[]) => ws.map((w) => (w[0] ?? "").toUpperCase()).join("");
  out.add(first(words));
  const content = words.filter((w) => !FUNCTION_WORDS.has(w.toLowerCase()));
  if (content.length >= 2) out.add(first(content));
  return [...out].filter((i) => i.length >= 2 && ACRONYM.test(i));
}

/** One name is the other's initialism (either way round). */
export function sameEntity(pair: { known: string; mentioned: string }): boolean {
  const [a, b] = [pair.known.trim(), pair.mentioned.trim()];
  const isInitialism = (short: string, long: string) => ACRONYM.test(short) && short !== long && initialismsOf(long).includes(short);
  return isInitialism(a, b) || isInitialism(b, a);
}
