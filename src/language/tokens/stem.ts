/**
 * A light, conservative English stemmer, so that "photos"/"photo", "studies"/"study" and
 * "painted"/"painting"/"paint" meet in keyword matching and embeddings. It only strips inflections
 * (plural -s/-es/-ies, -ing, -ed, -ly); it never touches derivational suffixes, and it prefers to
 * leave a word alone over producing a wrong stem ("bus", "news", "need", "family" stay).
 *
 * One step strips one suffix and always makes the word shorter, and `stem` repeats steps until none
 * applies, so the result is a fixed point: stem(stem(w)) === stem(w).
 */

const LATIN_WORD = /^([a-z]+-)*[a-z]+$/;
const VOWEL = /[aeiouy]/;

/** Words that look inflected but are not (or whose inflection we do not want to undo). */
const KEEP = new Set(
  `news series species means lens yes this thus plus always perhaps christmas texas vegas canvas atlas
  bias alias gas has was is his its hers ours yours theirs whereas
  need seed feed weed speed greed deed indeed breed bleed embed hundred sacred naked wicked rugged
  ragged kindred bed red shed wed fled sled bred
  family italy july ally only early daily holy ugly belly jelly bully silly supply apply reply
  anomaly assembly monopoly butterfly dragonfly firefly emily
  thing nothing something anything everything king ring sing sting string spring bring wing swing
  during morning evening ceiling`.split(/\s+/),
);

/** Plurals whose singular ends in -ie, not -y. */
const IE_NOUNS = new Set(
  `movie cookie calorie zombie selfie brownie rookie hoodie smoothie veggie goalie freebie newbie
  sweetie birdie pixie hippie aussie prairie genie pie tie lie die`.split(/\s+/),
);

const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ["buses", "bus"],
  ["gases", "gas"],
  ["lenses", "lens"],
]);

/** Stems an English word given in lower case. Anything else (other scripts, digits) is returned as is. */
export function stem(word: string): string {
  if (!LATIN_WORD.test(word)) return word;
  const hyphen = word.lastIndexOf("-");
  const head = word.slice(0, hyphen + 1);
  let tail = word.slice(hyphen + 1);
  for (;;) {
    const next = step(tail);
    if (next === tail) return head + tail;
    tail = next;
  }
}

/** One stripping step; returns the word unchanged when no rule applies. */
function step(w: string): string {
  if (w.length < 4 || KEEP.has(w)) return w;
  const irregular = IRREGULAR.get(w);
  if (irregular !== undefined) return irregular;
  if (w.endsWith("s")) return plural(w);
  if (w.endsWith("ing")) return restore(w.slice(0, -3), w);
  if (w.endsWith("ed")) return past(w);
  if (w.endsWith("ly")) return adverb(w);
  return w;
}

function plural(w: string): string {
  if (/(ss|us|is|'s)$/.test(w)) return w;
  if (w.endsWith("ies")) {
    const ie = w.slice(0, -1);
    if (w.length <= 4 || IE_NOUNS.has(ie)) return ie;
    return w.slice(0, -3) + "y";
  }
  if (/(sses|shes|xes|zzes)$/.test(w)) return w.slice(0, -2);
  if (/(ches)$/.test(w) && !/[^eo]aches$/.test(w)) return w.slice(0, -2);
  if (w.endsWith("oes") && w.length >= 6) return w.slice(0, -2);
  return w.slice(0, -1);
}

function past(w: string): string {
  if (w.endsWith("eed")) return w;
  if (w.endsWith("ied")) return w.length <= 4 ? w.slice(0, -1) : w.slice(0, -3) + "y";
  return restore(w.slice(0, -2), w);
}

/**
 * After -ing/-ed is cut: refuse stems without a vowel ("string", "bred"), undo consonant doubling
 * ("running" → "run") and restore a silent e where English spelling needs one ("making" → "make",
 * "dancing" → "dance", "continued" → "continue", "changing" → "change", "amazing" → "amaze").
 */
function restore(base: string, original: string): string {
  if (base.length < 3 || !VOWEL.test(base)) return original;
  const last = base.charAt(base.length - 1);
  const prev = base.charAt(base.length - 2);
  if (last === prev && !"aeiouylsz".includes(last)) return base.length >= 4 ? base.slice(0, -1) : base;
  if (/(at|bl|iz|v|u|dg|[^k]c|[^z]z)$/.test(base)) return base + "e";
  if (base.length >= 5 && /[aeu]ng$/.test(base)) return base + "e";
  if (isShortCvc(base)) return base + "e";
  return base;
}

/** A one-syllable stem ending consonant-vowel-consonant ("mak", "hop"), which had a silent e. */
function isShortCvc(base: string): boolean {
  if (!/^[^aeiouy]*[aeiouy][^aeiouywx]$/.test(base)) return false;
  return base.length <= 4;
}

function adverb(w: string): string {
  if (w.length < 6) return w;
  const before = w.charAt(w.length - 3);
  if ("ibpfoa".includes(before)) return w;
  if (before === "l" && !w.endsWith("ally")) return w;
  return w.slice(0, -2);
}
