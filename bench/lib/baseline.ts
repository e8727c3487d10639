/**
 * The same-run BM25 baseline as retrievers: over a LoCoMo conversation's raw turns (each turn's
 * remembered content, English content words) and over MADial's memory records (Chinese words).
 * Queries and documents go through the same content-word rule as text scoring, speaker names
 * removed: names are in nearly every question and would only add noise to the ranking.
 *
 * Pure module, runs in workerd.
 */
import { createBm25 } from "./bm25";
import type { LocomoConversation } from "./locomo";
import type { MadialDataset } from "./madial";
import type { RetrievedItem } from "./metrics";
import { contentWords } from "./tokens";

/**
 * BM25 over the conversation's turns, or over `held` (turn ids and the text held for them, e.g. what
 * a naive forgetting policy kept) when given.
 */
export function bm25LocomoRetriever(
  conv: LocomoConversation,
  limit: number,
  held?: readonly { id: string; text: string }[],
): (query: string) => RetrievedItem[] {
  const names = [...conv.speakers];
  const turns = held ?? conv.sessions.flatMap((s) => s.turns.map((t) => ({ id: t.diaId, text: t.content })));
  const index = createBm25(turns.map((t) => contentWords(t.text, "en", names)));
  return (query) =>
    index.search(contentWords(query, "en", names), limit).flatMap(({ index: i }) => {
      const t = turns[i];
      return t ? [{ sourceIds: [t.id], text: t.text }] : [];
    });
}

export function bm25MadialRetriever(ds: MadialDataset, limit: number): (query: string) => RetrievedItem[] {
  const names = [...ds.userNames, "Assistant"];
  const index = createBm25(ds.memories.map((m) => contentWords(m.content, "zh", names)));
  return (query) =>
    index.search(contentWords(query, "zh", names), limit).flatMap(({ index: i }) => {
      const m = ds.memories[i];
      return m ? [{ sourceIds: [m.id], text: m.content }] : [];
    });
}
