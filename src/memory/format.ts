/**
 * Plain-text recall output (docs/design.md §5): memories separated by `---`, no ids,
 * scores or depths; forgotten traces after the memories. Labels follow the locale.
 */
import type { MemoryNode } from "../vocabulary/records";
import type { ForgottenTrace } from "./recall-result";

import type { Locale } from "../vocabulary/locales";

const LABELS = {
  zh: {
    memory: "[记忆]",
    forgotten: (phrase: string) => `[已遗忘] 关于「${phrase}」的一段记忆已经遗忘`,
    conflict: "（与另一条记忆矛盾）",
  },
  en: {
    memory: "[memory]",
    forgotten: (phrase: string) => `[forgotten] A memory about "${phrase}" has been forgotten`,
    conflict: " (conflicts with another memory)",
  },
} as const;

export const RECALL_SEPARATOR = "\n---\n";

/** A memory's text as shown to the agent: the speaker's name first when one speaker said it. */
export function memoryText(node: Pick<MemoryNode, "content" | "speaker">): string {
  return node.speaker ? `${node.speaker}: ${node.content}` : node.content;
}

/**
 * `conflicted`: the memory contradicts another one the agent holds (docs/design.md §11): the text
 * says so after it.
 */
export function formatRecall(
  memories: readonly (Pick<MemoryNode, "content" | "speaker"> & { conflicted?: boolean })[],
  traces: readonly Pick<ForgottenTrace, "sourcePhrase">[],
  locale: Locale,
): string {
  const labels = LABELS[locale];
  return [
    ...memories.map((m) => `${labels.memory} ${memoryText(m)}${m.conflicted ? labels.conflict : ""}`),
    ...traces.map((t) => labels.forgotten(t.sourcePhrase)),
  ].join(RECALL_SEPARATOR);
}
