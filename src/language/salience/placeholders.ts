/**
 * Nouns that name nothing a memory is about (what can be an entity, entity-words.ts): place-holders
 * that stand in for something else (thing, time, way, 东西, 时候), nouns of feeling or value
 * (isEvaluative) and abstract nouns (isAbstractNoun). The tagger calls them nouns; no tagger can
 * tell this.
 */
import { isAbstractNoun, isEvaluative, type TaggedWord } from "../tagging/tagged-words";
import { ZH_STOP_WORDS } from "../tokens/stopwords-zh";

/**
 * English nouns that stand in for something else (a place-holder, a quantity, a span of time) and
 * name nothing a memory is about. The tagger calls them nouns; no tagger can tell this.
 */
export const EN_PLACEHOLDER_NOUNS: ReadonlySet<string> = new Set(
  `thing stuff lot bit kind sort type way time moment day week month year today tonight tomorrow yesterday
  weekend morning evening night afternoon spring summer autumn winter season while part side end point something
  anything everything nothing
  someone anyone everyone somebody anybody everybody one place idea fun look chance plenty bunch couple
  piece number amount deal matter reason question answer sense feeling story
  person people other others man woman guy folk photo pic picture image selfie word name thought news advice
  offer plan mind`.split(/\s+/),
);
/** Chinese nouns of the same kind, and the light nouns the stop list keeps (东西, 事情, 时候 …). */
export const ZH_PLACEHOLDER_NOUNS: ReadonlySet<string> = new Set(
  `东西 事情 事儿 情况 时候 时间 地方 方面 问题 样子 感觉 心情 办法 意思 部分 一下 有点 感受 想法`.split(/\s+/),
);

/**
 * A word that names nothing: a place-holder noun, one of feeling or value (isEvaluative), or an
 * abstract noun (isAbstractNoun). An abstract noun may still modify the head of a compound
 * ("mentorship program"): compounds test their words with standsIn.
 */
export function isPlaceholder(w: TaggedWord): boolean {
  return standsIn(w) || isAbstractNoun(w);
}

/** A place-holder noun or one of feeling or value: never part of a compound. */
export function standsIn(w: TaggedWord): boolean {
  if (w.script === "cjk") return ZH_PLACEHOLDER_NOUNS.has(w.lemma) || ZH_STOP_WORDS.has(w.lemma);
  return EN_PLACEHOLDER_NOUNS.has(w.lemma) || isEvaluative(w);
}
