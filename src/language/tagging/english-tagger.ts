/**
 * English words with parts of speech, lemmas, negation and wink's own entity types (dates,
 * numbers): winkNLP with its English lite model (`wink-nlp`, `wink-eng-lite-web-model`). The model
 * is a few megabytes of JSON; it is loaded on the first English text an isolate sees, not when the
 * Worker starts (docs/BENCHMARKS.md: start-up), so `loadEnglishTagger` must have resolved before
 * `tagEnglish` is called.
 */
import type { ItemEntity, ItemSentence, ItsFunction, WinkMethods } from "wink-nlp";
import { HELD_MAX, WinkInstance } from "./wink-instance";

export interface EnglishWord {
  /** The surface text. */
  text: string;
  /** UTF-16 offsets into the tagged text. */
  start: number;
  end: number;
  /** Universal Dependencies part of speech (NOUN, PROPN, VERB, ADJ, ADV, PRON, DET, ADP, AUX, …). */
  pos: string;
  /** Lower-case lemma ("agencies" → agency, "researching" → research, "was" → be). */
  lemma: string;
  /** Inside the scope of a negation ("I do not like tea": like, tea). */
  negated: boolean;
  /** wink's entity type when the word belongs to one (DATE, TIME, CARDINAL, ORDINAL, MONEY, …). */
  entity: string | undefined;
}

let make: (() => WinkInstance) | undefined;
let loading: Promise<() => WinkInstance> | undefined;
let instance: WinkInstance | undefined;

export function englishTaggerLoaded(): boolean {
  return instance !== undefined;
}

/** Loads the model once per isolate (later calls share the first one's promise). */
export async function loadEnglishTagger(): Promise<void> {
  loading ??= Promise.all([import("wink-nlp"), import("wink-eng-lite-web-model")]).then(([nlp, model]) =>
    WinkInstance.factory(nlp.default, model.default),
  );
  make = await loading;
  instance ??= make();
}

/** Words and feature values the tagger holds beyond its model: at most HELD_MAX (wink-instance.ts). */
export function englishWordsHeld(): number {
  return instance?.held() ?? 0;
}

/** Every word and punctuation mark of `text` with its tags; whitespace is not a word. */
export function tagEnglish(text: string): EnglishWord[] {
  if (instance === undefined || make === undefined) throw new Error("the English tagger is not loaded: await loadEnglishTagger() first");
  const words = instance.read((live) => tagWith(live, text));
  if (instance.held() > HELD_MAX) instance = make();
  return words;
}

function tagWith(live: WinkMethods, text: string): EnglishWord[] {
  const { its } = live;
  const doc = live.readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out(its.value);
  const spaces = tokens.out(its.precedingSpaces);
  const pos = tokens.out(its.pos);
  const lemmas = tokens.out(addonIts(its.lemma));
  const negated = tokens.out(its.negationFlag);
  const entityOf = new Array<string | undefined>(values.length).fill(undefined);
  const sentenceStarts = new Set<number>();
  doc.sentences().each((sentence: ItemSentence) => {
    const span = sentence.out(its.span);
    if (Array.isArray(span) && span[0] !== undefined) sentenceStarts.add(span[0]);
  });
  doc.entities().each((e: ItemEntity) => {
    const span = e.out(its.span);
    const type = e.out(its.type);
    if (!Array.isArray(span)) return;
    for (let i = span[0] ?? 0; i <= (span[1] ?? -1); i++) entityOf[i] = type;
  });
  // A capitalised first word is tagged a name whatever it is ("Good to see you!", "Spill the beans!",
  // "Tons has gone down"): capitals there say little. When the model's own vocabulary knows the word
  // in lower case (isOOV: its intrinsic lexicon; isLexeme also answers for every word the isolate has
  // read since, which made the tag depend on what came before), the sentence is tagged again with it
  // in lower case and the word takes that tag (an adjective, a verb, a common noun), except a singular
  // noun right before its verb: a bare singular subject is a name ("Bobby fixed it", "Max is my dog").
  // A word the vocabulary does not know stays a name ("Luna", "Paris"), and so does one the same text
  // also capitalises inside a sentence.
  doc.sentences().each((sentence: ItemSentence) => {
    const span = sentence.out(its.span);
    const first = Array.isArray(span) ? (span[0] ?? -1) : -1;
    const value = values[first];
    if (value === undefined || pos[first] !== "PROPN" || pos[first + 1] === "PROPN" || doc.isOOV(value.toLowerCase())) return;
    if (values.some((v, i) => v === value && i !== first && !sentenceStarts.has(i))) return;
    const lower = value.charAt(0).toLowerCase() + value.slice(1);
    const again = live.readDoc(`${lower}${sentence.out().slice(value.length)}`).tokens();
    const retagged = again.out(its.pos)[0] ?? "PROPN";
    const lemma = again.out(addonIts(its.lemma))[0] ?? value;
    const subject = retagged === "NOUN" && lemma === lower && verbNext(values, pos, first + 1);
    if (retagged === "PROPN" || subject) return;
    pos[first] = retagged;
    lemmas[first] = lemma;
  });
  const out: EnglishWord[] = [];
  let at = 0;
  values.forEach((value, i) => {
    // wink keeps every character: a token starts after its preceding spaces.
    const found = text.indexOf(value, at + (spaces[i]?.length ?? 0));
    const start = found < 0 ? at : found;
    at = start + value.length;
    out.push({
      text: value,
      start,
      end: at,
      pos: pos[i] ?? "X",
      lemma: (lemmas[i] ?? value).toLowerCase(),
      negated: negated[i] === true,
      entity: entityOf[i],
    });
  });
  return out;
}

/**
 * Whether the word at `i` is a verb: tagged one, or a "plural noun" before an object or a
 * preposition ("Carol reviews the budget": the model tags "reviews" NNS; tagged-words.ts makes the
 * same correction after a name).
 */
function verbNext(values: readonly string[], pos: readonly string[], i: number): boolean {
  const tag = pos[i];
  if (tag === "VERB" || tag === "AUX") return true;
  const after = pos[i + 1];
  return (
    tag === "NOUN" &&
    /[a-z]s$/.test(values[i] ?? "") &&
    (after === "DET" || after === "ADP" || after === "PRON" || after === "ADV" || after === "NOUN")
  );
}

/**
 * wink's typings declare token functions as (index, token, cache, addons), but the lemma helper is
 * (index, rdd, addons) and wink calls every one as (index, rdd, addons): the same function, typed
 * as `out` expects it.
 */
function addonIts<T>(f: (index: number, rdd: unknown, addons: never) => T): ItsFunction<T> {
  return f as unknown as ItsFunction<T>;
}
