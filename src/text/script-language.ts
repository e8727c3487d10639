/**
 * The language a set of texts is written in, by script: Chinese when at least half of the texts
 * with any letter hold a Han character, else English; none for no such text. It decides the labels'
 * language of an agent that said nothing else (docs/design.md, "The labels' language").
 */
import type { Locale } from "../vocabulary/locales";

const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;

export function scriptLanguage(texts: Iterable<string>): Locale | undefined {
  let written = 0;
  let chinese = 0;
  for (const text of texts) {
    if (!LETTER.test(text)) continue;
    written += 1;
    if (HAN.test(text)) chinese += 1;
  }
  if (written === 0) return undefined;
  return chinese * 2 >= written ? "zh" : "en";
}
