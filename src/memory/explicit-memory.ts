/**
 * Explicit memories (docs/design.md, "Memory operations", create_memory): the text of a memory an agent
 * writes itself, either given as is or composed from a structure (subject, memory type,
 * topic, object, attributes) in the caller's language, with relative times resolved to absolute
 * dates against the message time. Pure: the same input gives the same text and facts.
 */
import { type MemoryType } from "../vocabulary/memory-types";
import { resolveRelativeTimes, resolveTimeValue, type ResolvedTime } from "../language/time/relative-time";

export interface MemoryStructure {
  subject: string;
  memoryType: MemoryType;
  topic: string;
  object?: string | undefined;
  /** Extended attributes (时间, 地点, 原因, 方式, …), keys as given. */
  attributes?: Readonly<Record<string, string>> | undefined;
}

export type Language = "zh" | "en";

export interface ComposedMemory {
  content: string;
  language: Language;
  /** The attributes with the time resolved (the structure kept in the node's meta). */
  attributes: Record<string, string>;
  resolvedTimes: ResolvedTime[];
}

const HAS_CJK = /[\p{Script=Han}\u3040-\u30ff\uac00-\ud7af]/u;

/** Chinese when any of the texts holds a CJK character, else English. */
export function detectLanguage(texts: readonly string[]): Language {
  return texts.some((t) => HAS_CJK.test(t)) ? "zh" : "en";
}

type Role = "time" | "place" | "reason" | "manner";

const ATTRIBUTE_ROLES: Readonly<Record<string, Role>> = {
  time: "time",
  时间: "time",
  date: "time",
  日期: "time",
  place: "place",
  地点: "place",
  location: "place",
  reason: "reason",
  原因: "reason",
  manner: "manner",
  方式: "manner",
};

const ROLE_LABELS: Readonly<Record<Language, Record<Role, string>>> = {
  zh: { time: "时间", place: "地点", reason: "原因", manner: "方式" },
  en: { time: "time", place: "place", reason: "reason", manner: "manner" },
};

/** English possessives of pronouns a subject may be ("My view of …", not "I's view of …"). */
const EN_POSSESSIVE: Readonly<Record<string, string>> = {
  i: "My",
  me: "My",
  you: "Your",
  he: "His",
  she: "Her",
  it: "Its",
  we: "Our",
  they: "Their",
};

function possessive(subject: string): string {
  return EN_POSSESSIVE[subject.toLowerCase()] ?? (subject.endsWith("s") ? `${subject}'` : `${subject}'s`);
}

/**
 * The sentence of a structured memory, in the language of its words:
 *
 *   event     2025-11-04，我在超市购物：水果（物品：苹果,香蕉） / I bought fruit at the supermarket on 2025-11-04
 *   fact      小明的喜好是打篮球 / Xiaoming's hobby: basketball
 *   relation  我与小明的关系：朋友关系（程度：好朋友） / I and Xiaoming: friends (degree: good friends)
 *   opinion   我对下雨天的看法：讨厌 / My view of rainy days: dislike
 *
 * Attributes the template does not place (for an event: all but time and place) follow in
 * parentheses. A time attribute is resolved against `referenceMs` (resolveTimeValue).
 */
export function composeMemory(structure: MemoryStructure, referenceMs: number): ComposedMemory {
  const { subject, topic, object, memoryType } = structure;
  const given = Object.entries(structure.attributes ?? {});
  const language = detectLanguage([subject, topic, object ?? "", ...given.flat()]);
  const resolvedTimes: ResolvedTime[] = [];
  const attributes: Record<string, string> = {};
  for (const [key, raw] of given) {
    const value = raw.trim();
    if (ATTRIBUTE_ROLES[key.toLowerCase()] === "time") {
      const resolved = resolveTimeValue(value, referenceMs);
      resolvedTimes.push(...resolved.resolved);
      attributes[key] = resolved.text;
    } else {
      attributes[key] = value;
    }
  }
  const roleValue = (role: Role): string | undefined =>
    Object.entries(attributes).find(([key]) => ATTRIBUTE_ROLES[key.toLowerCase()] === role)?.[1];
  const placed = new Set<Role>(memoryType === "event" ? ["time", "place"] : []);
  const rest = Object.entries(attributes)
    .filter(([key]) => {
      const role = ATTRIBUTE_ROLES[key.toLowerCase()];
      return role === undefined || !placed.has(role);
    })
    .map(([key, value]) => {
      const role = ATTRIBUTE_ROLES[key.toLowerCase()];
      return [role ? ROLE_LABELS[language][role] : key, value] as const;
    });
  const time = memoryType === "event" ? roleValue("time") : undefined;
  const place = memoryType === "event" ? roleValue("place") : undefined;
  const obj = object?.trim() || undefined;
  let sentence: string;
  if (language === "zh") {
    switch (memoryType) {
      case "event":
        sentence = `${time ? `${time}，` : ""}${subject}${place ? `在${place}` : ""}${topic}${obj ? `：${obj}` : ""}`;
        break;
      case "fact":
        sentence = `${subject}的${topic}${obj ? `是${obj}` : ""}`;
        break;
      case "relation":
        sentence = obj ? `${subject}与${obj}的关系：${topic}` : `${subject}的关系：${topic}`;
        break;
      case "opinion":
        sentence = obj ? `${subject}对${obj}的看法：${topic}` : `${subject}的看法：${topic}`;
        break;
    }
    if (rest.length > 0) sentence += `（${rest.map(([k, v]) => `${k}：${v}`).join("；")}）`;
  } else {
    switch (memoryType) {
      case "event":
        sentence = `${subject} ${topic}${obj ? ` ${obj}` : ""}${place ? ` at ${place}` : ""}${time ? ` on ${time}` : ""}`;
        break;
      case "fact":
        sentence = `${possessive(subject)} ${topic}${obj ? `: ${obj}` : ""}`;
        break;
      case "relation":
        sentence = obj ? `${subject} and ${obj}: ${topic}` : `${possessive(subject)} relationship: ${topic}`;
        break;
      case "opinion":
        sentence = obj ? `${possessive(subject)} view of ${obj}: ${topic}` : `${possessive(subject)} view: ${topic}`;
        break;
    }
    if (rest.length > 0) sentence += ` (${rest.map(([k, v]) => `${k}: ${v}`).join("; ")})`;
  }
  return { content: sentence, language, attributes, resolvedTimes };
}

/** A memory given as text: its relative times annotated with their absolute dates. */
export function prepareContent(content: string, referenceMs: number): ComposedMemory {
  const resolved = resolveRelativeTimes(content.trim(), referenceMs);
  return { content: resolved.text, language: detectLanguage([content]), attributes: {}, resolvedTimes: resolved.resolved };
}
