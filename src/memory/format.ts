/**
 * What an agent reads (docs/design.md §5, §12): the plain text of recall and the pieces the
 * context block is made of, in one place, so the two say the same thing the same way. No ids,
 * scores or depths; labels follow the locale.
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

/** A memory's text as shown to the agent: the speaker's name first when one speaker said it. */
export function memoryText(node: Pick<MemoryNode, "content" | "speaker">): string {
  return node.speaker ? `${node.speaker}: ${node.content}` : node.content;
}

/** The mark after a memory that contradicts another one the agent holds (docs/design.md §11). */
export function conflictMark(locale: Locale): string {
  return LABELS[locale].conflict;
}

/** The sentence of a "once knew" trace. */
export function traceSentence(phrase: string, locale: Locale): string {
  return LABELS[locale].trace(phrase);
}

export interface ShownMemory extends Pick<MemoryNode, "content" | "speaker"> {
  /** It contradicts another memory the agent holds. */
  conflicted?: boolean;
}

export function formatRecall(memories: readonly ShownMemory[], traces: readonly { sourcePhrase: string }[], locale: Locale): string {
  const labels = LABELS[locale];
  return [
    ...memories.map((m) => `${labels.memory} ${memoryText(m)}${m.conflicted ? labels.conflict : ""}`),
    ...traces.map((t) => `${labels.forgotten} ${traceSentence(t.sourcePhrase, locale)}`),
  ].join(RECALL_SEPARATOR);
}
