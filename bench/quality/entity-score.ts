/**
 * The entity benchmark's scoring rule (bench/quality/annotations/README.md, "Scoring"): per text, the
 * entities an extractor returned against the annotation's `must` and `ok` lists.
 *
 * - the speaker's own name is dropped before anything is counted (neither a hit nor junk);
 * - a returned entity matches when it equals a form of a `must` entry or an `ok` string, else it is
 *   junk; precision = matching ÷ returned;
 * - recall = `must` entries found (any of their forms returned) ÷ `must` entries;
 * - comparison is case-insensitive (NFKC), and plural and possessive forms are equal ("agency" =
 *   "agencies", "Nate" = "Nate's"); Chinese title marks are part of the listed forms.
 *
 * Counts are pooled over texts (micro-average) per language, per split and over both. The rule is
 * the benchmark's own, written here independently of the product's entity keys.
 */
import type { AnnotatedItem, Lang, Split } from "./annotations";

export interface EntityCounts {
  texts: number;
  /** Entities returned (the speaker's own name left out). */
  returned: number;
  /** Returned entities that match a must form or an ok string. */
  matched: number;
  /** Must entries, and those found. */
  must: number;
  found: number;
}

export interface EntityScores extends EntityCounts {
  precision: number;
  recall: number;
}

/** One text's verdict: what was returned, which were junk, which must entries were missed. */
export interface TextVerdict {
  counts: EntityCounts;
  junk: string[];
  missed: string[];
}

const POSSESSIVE = /(?:['’]s|s['’])$/u;
const EDGE = /^[\s"'“”‘’`.,;:!?()[\]]+|[\s"'“”‘’`.,;:!?()[\]]+$/gu;
const LATIN_WORD = /^[a-z][a-z'-]*$/;

/** The comparison form of one word: singular ("agencies" → agency, "boxes" → box, "kids" → kid). */
function singular(word: string): string {
  if (!LATIN_WORD.test(word) || word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|zes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Case-, width-, possessive- and plural-insensitive form of a name. */
export function entityForm(name: string): string {
  const base = name.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").replace(EDGE, "");
  const words = base.split(" ").map((w) => w.replace(POSSESSIVE, (m) => (m.startsWith("s") ? "s" : "")));
  const last = words.length - 1;
  return words.map((w, i) => (i === last ? singular(w) : w)).join(" ");
}

/** Scores one text. */
export function scoreText(item: Pick<AnnotatedItem, "speaker" | "must" | "ok">, returned: readonly string[]): TextVerdict {
  const speaker = entityForm(item.speaker);
  const entries = item.must.map((m) => (typeof m === "string" ? [m] : m));
  const must = entries.map((forms) => new Set(forms.map(entityForm)));
  const acceptable = new Set([...must.flatMap((forms) => [...forms]), ...item.ok.map(entityForm)]);
  const kept = [...new Set(returned.map((r) => r.trim()).filter((r) => r !== ""))].filter((r) => entityForm(r) !== speaker);
  const forms = new Set(kept.map(entityForm));
  const junk = kept.filter((r) => !acceptable.has(entityForm(r)));
  const isFound = must.map((entry) => [...entry].some((f) => forms.has(f)));
  const missed = entries.filter((_forms, i) => !isFound[i]).map((f) => f.join(" / "));
  const found = isFound.filter(Boolean).length;
  return {
    counts: { texts: 1, returned: kept.length, matched: kept.length - junk.length, must: must.length, found },
    junk,
    missed,
  };
}

export function emptyCounts(): EntityCounts {
  return { texts: 0, returned: 0, matched: 0, must: 0, found: 0 };
}

export function addCounts(a: EntityCounts, b: EntityCounts): EntityCounts {
  return {
    texts: a.texts + b.texts,
    returned: a.returned + b.returned,
    matched: a.matched + b.matched,
    must: a.must + b.must,
    found: a.found + b.found,
  };
}

/** Precision and recall of pooled counts (1 when nothing was returned or nothing was required). */
export function scoresOf(c: EntityCounts): EntityScores {
  return { ...c, precision: c.returned === 0 ? 1 : c.matched / c.returned, recall: c.must === 0 ? 1 : c.found / c.must };
}

export const ENTITY_LANGS = ["en", "zh", "all"] as const;
export const ENTITY_SPLITS = ["tune", "heldback", "all"] as const;

export interface EntityGroupScores {
  lang: (typeof ENTITY_LANGS)[number];
  split: (typeof ENTITY_SPLITS)[number];
  scores: EntityScores;
}

/** Pooled scores per language × split, "all" pooling each, in ENTITY_LANGS × ENTITY_SPLITS order. */
export function poolEntityScores(verdicts: readonly { item: { lang: Lang; split: Split }; verdict: TextVerdict }[]): EntityGroupScores[] {
  return ENTITY_LANGS.flatMap((lang) =>
    ENTITY_SPLITS.map((split) => {
      const counts = verdicts
        .filter(({ item }) => (lang === "all" || item.lang === lang) && (split === "all" || item.split === split))
        .reduce((sum, v) => addCounts(sum, v.verdict.counts), emptyCounts());
      return { lang, split, scores: scoresOf(counts) };
    }),
  );
}
