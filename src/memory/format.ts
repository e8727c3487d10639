/**
 * What an agent reads (docs/design.md, "recall(keywords, relations, depth)", "Context for prompts"): the plain text of recall and the pieces the
 * context block is made of, in one place, so the two say the same thing the same way. No ids,
 * scores or depths; labels follow the locale.
 *
 * Memories are data, never structure (docs/design.md, "Stored text is data"): every stored string
 * is shown so that it cannot start an item, a separator or a section. A memory's text is an item's
 * body, its later lines indented (`itemBody`); a name, a phrase, a speaker is one line inside a
 * line (`oneLine`). Every line break a reader may honour counts (LINE_BREAK below).
 */
import type { Locale } from "../vocabulary/locales";
import type { MemoryNode } from "../vocabulary/records";

const LABELS = {
  zh: {
    memory: "[记忆]",
    forgotten: "[已遗忘]",
    trace: (phrase: string) => `关于「${phrase}」的一段记忆已经遗忘`,
    conflict: "（与另一条记忆矛盾）",
  },
  en: {
    memory: "[memory]",
    forgotten: "[forgotten]",
    trace: (phrase: string) => `A memory about "${phrase}" has been forgotten`,
    conflict: " (conflicts with another memory)",
  },
} as const;

export const RECALL_SEPARATOR = "\n---\n";

/**
 * Every line break a reader may honour: LF, VT, FF, CR (and CR LF), the information separators
 * FS, GS, RS (U+001C–U+001E, line boundaries for Python's `str.splitlines`), NEL, LS and PS.
 */
const LINE_BREAK = /\r\n|[\n\v\f\r\u001c-\u001e\u0085\u2028\u2029]/g;

/** Stored text inside a line (a name, a phrase): its line breaks, and the spaces around them, are one space. */
export function oneLine(text: string): string {
  return text
    .replace(LINE_BREAK, "\n")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/**
 * Stored text as the body of an item: trimmed, its later lines indented by two spaces (blank ones
 * dropped), so a segment of several messages stays one item and no line of it can pose as the
 * next item, a separator or a section.
 */
export function itemBody(text: string): string {
  return text
    .replace(LINE_BREAK, "\n")
    .trim()
    .replace(/\s*\n\s*/g, "\n  ");
}

/** A memory's text as shown to the agent: the speaker's name first when one speaker said it. */
export function memoryText(node: Pick<MemoryNode, "content" | "speaker">): string {
  return node.speaker ? `${oneLine(node.speaker)}: ${node.content}` : node.content;
}

/** The mark after a memory that contradicts another one the agent holds (docs/design.md, "Memory operations"). */
export function conflictMark(locale: Locale): string {
  return LABELS[locale].conflict;
}

/** The sentence of a "once knew" trace. */
export function traceSentence(phrase: string, locale: Locale): string {
  return LABELS[locale].trace(oneLine(phrase));
}

export interface ShownMemory extends Pick<MemoryNode, "content" | "speaker"> {
  /** It contradicts another memory the agent holds. */
  conflicted?: boolean;
}

export function formatRecall(memories: readonly ShownMemory[], traces: readonly { sourcePhrase: string }[], locale: Locale): string {
  const labels = LABELS[locale];
  return [
    ...memories.map((m) => `${labels.memory} ${itemBody(memoryText(m))}${m.conflicted ? labels.conflict : ""}`),
    ...traces.map((t) => `${labels.forgotten} ${traceSentence(t.sourcePhrase, locale)}`),
  ].join(RECALL_SEPARATOR);
}
