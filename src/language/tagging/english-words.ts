/**
 * English words through winkNLP (english-tagger.ts), mapped to the word classes (word-classes.ts),
 * with the fixes of its tags that chat needs: greetings and thanks are interjections, spoken
 * contractions function words, a "noun" that takes an object a verb; nouns of feeling or value
 * marked (the sentiment lexicon's, evaluative-nouns.ts).
 */
import { EVALUATIVE_NOUNS } from "../tables/evaluative-nouns";
import { isCalendarWord } from "../time/calendar-words";
import { tagEnglish, type EnglishWord } from "./english-tagger";
import { LETTER_OR_DIGIT, scriptOf, type TaggedWord, type WordClass } from "./word-classes";

/**
 * Chat words the English model tags as nouns or names ("Thanks", "Yea", "lol"): they greet, thank
 * or agree, and name nothing.
 */
const CHAT_INTERJECTIONS: ReadonlySet<string> = new Set(
  `thanks thank thx ty yea yeah yep yup nope nah ok okay hi hey hello bye wow woah whoa omg lol haha hahaha hehe aww
  yay ugh hmm oh ooh oof ah congrats congratulations cheers please sorry welcome btw`.split(/\s+/),
);
/** Spoken contractions of a verb and its particle ("gonna" = going to): never a thing. */
const SPOKEN_CONTRACTIONS: ReadonlySet<string> = new Set(`gonna gotta wanna kinda sorta dunno lemme gimme`.split(/\s+/));
/** A letter said three times or more ("sooo", "yesss"): drawn-out speech, an intensifier. */
const DRAWN_OUT = /(\p{L})\1\1/u;
/** Determiners and possessives: a "noun" right before one is a verb taking an object ("shares a photo"). */
const DETERMINERS: ReadonlySet<string> = new Set(`a an the these those my your his her our their`.split(/\s+/));
/** Object pronouns: a "noun" right before one is a verb ("picturing it"). */
const OBJECT_PRONOUNS: ReadonlySet<string> = new Set(`it them me him us`.split(/\s+/));

/**
 * "Mina lives in Lisbon": a "plural noun" right after a name that opens the clause, before a
 * preposition, determiner, pronoun or adverb, is the name's verb (the model tags it NNS).
 */
function verbAfterName(
  w: EnglishWord,
  name: EnglishWord | undefined,
  before: EnglishWord | undefined,
  next: EnglishWord | undefined,
): boolean {
  if (!/[a-z]s$/.test(w.text) || name?.pos !== "PROPN" || next === undefined) return false;
  if (before !== undefined && before.pos !== "PUNCT") return false;
  return next.pos === "ADP" || next.pos === "DET" || next.pos === "PRON" || next.pos === "ADV" || next.pos === "NOUN";
}

/**
 * A word the model tagged a noun that takes an object, so is a verb: before a determiner ("shares a
 * photo"), an object pronoun ("picturing it"), or, ending in -ing, before a plural noun ("offering
 * workshops"; a gerund before a singular noun names a kind: "painting class").
 */
function takesObject(w: EnglishWord, next: EnglishWord | undefined): boolean {
  if (next === undefined) return false;
  const lower = next.text.toLowerCase();
  if (DETERMINERS.has(lower) || OBJECT_PRONOUNS.has(lower)) return true;
  return /ing$/i.test(w.text) && next.pos === "NOUN" && next.lemma !== lower;
}

/** Pronoun contractions the English model sometimes leaves whole and calls a name ("I'm"). */
const PRONOUN_CONTRACTION = /^(?:i|you|we|they|he|she|it|that|there|who)['’](?:m|re|ve|ll|d|s)$/i;

const UD_CLASS: Readonly<Record<string, WordClass>> = {
  PROPN: "name",
  NOUN: "noun",
  VERB: "verb",
  ADJ: "adj",
  ADV: "adv",
  NUM: "num",
  PRON: "pron",
  DET: "function",
  ADP: "function",
  AUX: "function",
  CCONJ: "function",
  SCONJ: "function",
  PART: "function",
  INTJ: "interjection",
  PUNCT: "punct",
  SYM: "punct",
};

/** The words of a line of English (or of the English in a Chinese line) with their classes. */
export function englishWords(text: string): TaggedWord[] {
  if (!LETTER_OR_DIGIT.test(text)) return [];
  const tagged = tagEnglish(text);
  return tagged.map((w, i) => {
    const lower = w.text.toLowerCase();
    let cls = UD_CLASS[w.pos] ?? "other";
    if (CHAT_INTERJECTIONS.has(lower) || DRAWN_OUT.test(lower)) cls = "interjection";
    else if (PRONOUN_CONTRACTION.test(w.text)) cls = "pron";
    else if (SPOKEN_CONTRACTIONS.has(lower)) cls = "function";
    else if (cls === "noun" && (takesObject(w, tagged[i + 1]) || verbAfterName(w, tagged[i - 1], tagged[i - 2], tagged[i + 1])))
      cls = "verb";
    const lemma = cls === "name" ? lower.replace(/['’]s$/, "") : w.lemma;
    const temporal = w.entity === "DATE" || w.entity === "TIME" || w.entity === "DURATION" || isCalendarWord(lower);
    const script = scriptOf(w.text);
    // Nouns of feeling or value carry a polarity in the model's sentiment lexicon (isEvaluative).
    const evaluative = (cls === "noun" || cls === "name") && script === "latin" && (hasPolarity(lemma) || hasPolarity(lower));
    return {
      text: w.text,
      start: w.start,
      end: w.end,
      cls,
      tag: w.pos,
      lemma,
      script,
      sentence: 0,
      negated: w.negated,
      temporal,
      evaluative,
    };
  });
}

let evaluativeNouns: ReadonlySet<string> | undefined;

/** A noun with a polarity in the English model's sentiment lexicon (evaluative-nouns.ts). */
function hasPolarity(word: string): boolean {
  evaluativeNouns ??= new Set(EVALUATIVE_NOUNS.split(" "));
  return evaluativeNouns.has(word);
}
