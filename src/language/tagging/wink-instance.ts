/**
 * The English model as the tagger uses it (english-tagger.ts): winkNLP with its English lite model,
 * read so that no text leaves anything behind for the next one, and with bounded memory.
 *
 * wink keeps every word its model does not know (and the word in lower case) in its lexicon for
 * the life of its instance: in an isolate that serves every tenant's text, the lexicon grew without
 * bound, and whether a word was already there made a text with it faster to tag (about 40 µs per
 * word, measured), so one tenant's timing told whether another's text held a word. Here:
 *
 * - after every read, the values it added (unknown words, and their prefixes, suffixes and shapes)
 *   leave the index (`hash`) of their feature: the next text finds only the model's own there,
 *   whatever was read before, so its tagging and its time depend on itself alone (the tags never
 *   depended on what came before: wink computes an unknown word's features from the word, and a
 *   value read again gets a new position in the same list, which names the same value);
 * - the entries themselves stay in wink's arrays (its private list of unknown words' features is
 *   indexed by position), so once HELD_MAX words are held beyond the model the instance is replaced
 *   by a fresh one (about 10 ms: the model is parsed once per isolate and its parts shared, only the
 *   lexicon's index and lists are new). Its memory is bounded by HELD_MAX words (about 160 bytes each).
 *
 * What a reset says about other tenants is how many unknown words the isolate read, the way any
 * work in a shared isolate shows as its CPU time; never which words.
 *
 * The model's core is an internal structure of wink (the cache module of wink-nlp reads
 * `features[name].list`, `.hash` and `.index`); it is checked where it is read, and a model that
 * does not have it fails loudly at load.
 */
import type { Model, WinkMethods } from "wink-nlp";

/** Words wink may hold beyond its model before the instance is replaced. */
export const HELD_MAX = 8_192;

/**
 * sbd: sentences; negation: scopes; pos: tags (lemmas need them); ner: dates, times, numbers. No
 * sentiment: it cost about 40 % of each text's tagging, and the only polarities read are those of
 * single nouns, generated once into evaluative-nouns.ts.
 */
const PIPE = ["sbd", "negation", "pos", "ner"];

/** The model parts wink reads at load (besides core): parsed once, shared by every instance. */
const PARTS = ["sbd", "pos", "ner", "negation", "sa", "metaCER"] as const;

/** One feature's values as wink keeps them: positions by value (`hash`), values by position (`list`). */
interface FeatureValues {
  list: unknown[];
  hash: Record<string, unknown>;
}

type Wink = (model: Model, pipe?: string[]) => WinkMethods;

export class WinkInstance {
  private constructor(
    readonly wink: WinkMethods,
    /** Every feature's values (the words, their prefixes, suffixes, shapes …) and its length when the instance was made. */
    private readonly features: readonly (readonly [FeatureValues, number])[],
  ) {}

  /** A factory of instances: the model parsed now, once. */
  static factory(nlp: Wink, model: Model): () => WinkInstance {
    const core = asRecord(call(model.core, "core"), "core");
    const coreFeatures = asRecord(core.features, "features");
    const base = featuresOf(coreFeatures);
    const parts = Object.fromEntries(PARTS.map((name) => [name, call(model[name], name)]));
    return () => {
      // The values wink adds to go to new lists and to a new index over the model's own (its prototype).
      const features = new Map([...base].map(([name, f]) => [name, { ...f, list: [...f.list], hash: Object.create(f.hash) }]));
      const fresh = { ...core, features: { ...coreFeatures, ...Object.fromEntries(features) } };
      const shared: Model = { ...model, core: () => fresh };
      for (const name of PARTS) Object.assign(shared, { [name]: () => parts[name] });
      return new WinkInstance(
        nlp(shared, PIPE),
        [...features.values()].map((f) => [f, f.list.length] as const),
      );
    };
  }

  /** Words (and other feature values) held beyond the model. */
  held(): number {
    let held = 0;
    for (const [f, base] of this.features) held += f.list.length - base;
    return held;
  }

  /** `read(wink)`, after which the values it added (words, their suffixes …) leave the features' index. */
  read<T>(read: (wink: WinkMethods) => T): T {
    const starts = this.features.map(([f]) => f.list.length);
    try {
      return read(this.wink);
    } finally {
      this.features.forEach(([{ list, hash }], k) => {
        for (let i = starts[k] ?? list.length; i < list.length; i++) delete hash[String(list[i])];
      });
    }
  }
}

function call(part: unknown, name: string): unknown {
  if (typeof part !== "function") throw new Error(`the English model has no ${name}()`);
  return part();
}

function asRecord(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null) throw new Error(`the English model's ${name} is not an object`);
  return value as Record<string, unknown>;
}

/** The core's features that wink adds values to (those with a list and a hash). */
function featuresOf(features: Record<string, unknown>): Map<string, FeatureValues> {
  const out = new Map<string, FeatureValues>();
  for (const [name, f] of Object.entries(features)) {
    if (typeof f !== "object" || f === null) continue;
    const { list, hash } = f as Partial<FeatureValues>;
    if (Array.isArray(list) && typeof hash === "object" && hash !== null) out.set(name, { ...f, list, hash });
  }
  if (!out.has("lexeme")) throw new Error("the English model has no lexeme feature");
  return out;
}
