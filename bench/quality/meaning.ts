/**
 * The meaning benchmarks of bench:quality (docs/design.md §16, "Meaning"), through the API: entity
 * precision and recall against the hand annotations (bench/quality/annotations), conflict marks per
 * 1,000 memories on conversations with no real contradictions, and whether episode summaries are
 * made of their segments' clauses.
 */
import type { Message } from "../driver/agent-api";
import type { ResolvedItem } from "./annotations";

/** How an annotated text is remembered: one message, said by its speaker. */
export function entityMessage(item: Pick<ResolvedItem, "speaker" | "text" | "ref">): Message {
  const role = item.speaker.toLowerCase() === "assistant" ? "assistant" : "user";
  return { role, name: item.speaker, content: item.text };
}
