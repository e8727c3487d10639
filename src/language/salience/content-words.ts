/**
 * What a content word is (a keyword, a compression term, a word the conflict rules and query
 * keywords read): a name, noun, verb, adjective or number that is not a stop word and not a light
 * word said of anything (get, make, good, great, 觉得, 可以).
 */
import { ZH_STOP_WORDS } from "../tokens/stopwords-zh";
import type { TaggedWord } from "../tagging/tagged-words";

/** A "Name: text" line, as the segmenter writes merged short messages. */
const SPEAKER_LABEL = /^[^:：\n]{1,40}[:：][ \t]*/;
const CONTENT_CLASSES: ReadonlySet<string> = new Set(["name", "noun", "verb", "adj", "num", "other"]);

/**
 * Light verbs and evaluative adjectives: content words to a tagger, but said of anything
 * (get, make, good, great, 觉得, 可以). They stay searchable in the text; they are not keywords.
 */
const EN_LIGHT: ReadonlySet<string> = new Set(
  `be have do get go make take give put keep let say tell ask talk know think want like need see look seem feel try mean
  use find guess hope wish become happen sound come thank love glad sure good great nice cool awesome amazing wonderful
  fantastic fine bad right true okay real really able lovely super best better big small little new old last next
  first other same own much many lot more most such`.split(/\s+/),
);

/** Removes speaker labels when every line of a multi-line text carries one. */
export function stripSpeakerLabels(text: string): string {
  const lines = text.split("\n");
  if (lines.length < 2 || !lines.every((l) => l.trim() === "" || SPEAKER_LABEL.test(l))) return text;
  return lines.map((l) => l.replace(SPEAKER_LABEL, "")).join("\n");
}

/** Whether a word counts as a content word: a keyword, a compression term, a conflict word. */
export function isContentWord(w: TaggedWord): boolean {
  if (!CONTENT_CLASSES.has(w.cls) || !/[\p{L}\p{N}]/u.test(w.text)) return false;
  if (w.script === "cjk") return !ZH_STOP_WORDS.has(w.lemma);
  if (w.script === "number") return true;
  return w.lemma.length >= 2 && (w.cls === "name" || !EN_LIGHT.has(w.lemma));
}
