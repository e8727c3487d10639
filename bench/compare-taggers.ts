/**
 * The English tagger chosen for the local model (docs/BENCHMARKS.md, "English tagger"): winkNLP with
 * its lite English model against compromise, on the dev data, each library alone:
 *
 *   npx tsx --import ./scripts/wasm-hooks.mjs bench/compare-taggers.ts --locomo ../shared/bench/locomo/locomo-dev.json
 *
 * - speed: every LoCoMo turn of the file tagged once (after one warm-up pass), per text;
 * - quality: the annotated English texts of the tuning split (bench/quality/annotations), entities
 *   taken the same plain way from each library (proper-noun runs and noun phrases, determiners and
 *   adjectives dropped; compromise: its people, places, organisations and nouns), scored with the
 *   entity benchmark's rule. Neither has the product's rules on top (vocatives, place-holders…):
 *   this compares what the libraries give.
 */
import { parseArgs } from "node:util";
import nlp from "compromise";
import { loadLocomo } from "./lib/load";
import { loadEntityAnnotations } from "./quality/annotations-load";
import { poolEntityScores, scoreText } from "./quality/entity-score";
import { loadEnglishTagger, tagEnglish } from "../src/language/tagging/english-tagger";

const { values } = parseArgs({ options: { locomo: { type: "string" } } });
if (!values.locomo) throw new Error("--locomo FILE");

/** wink: runs of PROPN, and runs of NOUN/PROPN ending in a NOUN. */
function winkEntities(text: string): string[] {
  const words = tagEnglish(text);
  const out = new Set<string>();
  let run: string[] = [];
  let kinds: string[] = [];
  const flush = () => {
    while (kinds.length > 0 && kinds.at(-1) !== "NOUN" && kinds.some((k) => k === "NOUN")) {
      run.pop();
      kinds.pop();
    }
    if (run.length > 0) out.add(run.join(" "));
    run = [];
    kinds = [];
  };
  for (const w of words) {
    if (w.pos === "NOUN" || w.pos === "PROPN") {
      run.push(w.text.replace(/['’]s$/, ""));
      kinds.push(w.pos);
    } else flush();
  }
  flush();
  return [...out];
}

/** compromise: its people, places, organisations and nouns, without determiners, adjectives or punctuation. */
function compromiseEntities(text: string): string[] {
  const doc = nlp(text);
  const names = [...doc.people().out("array"), ...doc.places().out("array"), ...doc.organizations().out("array")] as string[];
  const nouns = doc.nouns().not("#Determiner").not("#Adjective").not("#Pronoun").out("array") as string[];
  return [...new Set([...names, ...nouns].map((s) => s.replace(/[^\p{L}\p{N}' -]+/gu, "").trim()).filter((s) => s !== ""))];
}

async function main(): Promise<void> {
  await loadEnglishTagger();
  const turns = loadLocomo(values.locomo ?? "").conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns.map((t) => t.content)));
  const items = loadEntityAnnotations({ locomo: values.locomo ?? "" }).items.filter((i) => i.lang === "en" && i.split === "tune");
  for (const [name, extract] of [
    ["wink-nlp 2.4.0 + wink-eng-lite-web-model 1.8.1", winkEntities],
    ["compromise 14.17.0", compromiseEntities],
  ] as const) {
    for (const t of turns) extract(t);
    const started = performance.now();
    for (const t of turns) extract(t);
    const perText = (performance.now() - started) / turns.length;
    const [all] = poolEntityScores(items.map((item) => ({ item, verdict: scoreText(item, extract(item.text)) }))).filter(
      (g) => g.lang === "en" && g.split === "tune",
    );
    const s = all?.scores;
    console.log(
      `${name.padEnd(48)} ${perText.toFixed(3)} ms a text (${turns.length} turns)  precision ${s?.precision.toFixed(3)} (${s?.matched}/${s?.returned})  recall ${s?.recall.toFixed(3)} (${s?.found}/${s?.must})`,
    );
  }
}

await main();
