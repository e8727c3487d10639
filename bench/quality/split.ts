/**
 * Tuning conversations apart from the held-back ones (issue 15): recall's parameters were fixed on
 * TUNING_CONVERSATIONS with the in-process probe (npm run bench:offline) and only checked on the
 * others, so the quality run reports each group with its own BM25 baseline, computed on the same
 * questions. A figure that holds on the tuning group only is a figure fitted to it.
 *
 * Question mode, exact ids, categories 1–4 pooled.
 */
import type { CategorisedScores } from "../lib/aggregate";
import { locomoConfigResult, type LocomoConfigResult } from "../lib/report";
import { fmt, type Table } from "../lib/table";

/** The conversations recall's parameters were chosen on; every other one is held back. */
export const TUNING_CONVERSATIONS: readonly string[] = ["conv-26", "conv-30"];

export type SplitGroup = "tuning" | "held back";

/** Scored rows of one configuration, per conversation (sample id). */
export type RowsByConversation = ReadonlyMap<string, readonly CategorisedScores[]>;

export interface SplitEntry {
  config: string;
  group: SplitGroup;
  conversations: string[];
  locomo: LocomoConfigResult;
}

const groupOf = (sampleId: string): SplitGroup => (TUNING_CONVERSATIONS.includes(sampleId) ? "tuning" : "held back");

function rowsOf(byConversation: RowsByConversation, group: SplitGroup): { conversations: string[]; rows: CategorisedScores[] } {
  const conversations = [...byConversation.keys()].filter((id) => groupOf(id) === group);
  return { conversations, rows: conversations.flatMap((id) => [...(byConversation.get(id) ?? [])]) };
}

/** The baseline and each configuration per group, ratios against the baseline of the same group. */
export function splitEntries(baseline: RowsByConversation, configs: readonly { name: string; rows: RowsByConversation }[]): SplitEntry[] {
  const groups: SplitGroup[] = ["tuning", "held back"];
  return groups.flatMap((group) => {
    const base = rowsOf(baseline, group);
    if (base.conversations.length === 0) return [];
    const baseResult = locomoConfigResult({ name: "bm25", baseline: true }, base.rows);
    return [
      { config: "bm25", group, conversations: base.conversations, locomo: baseResult },
      ...configs.map((c) => {
        const own = rowsOf(c.rows, group);
        return {
          config: c.name,
          group,
          conversations: own.conversations,
          locomo: locomoConfigResult({ name: c.name }, own.rows, baseResult.pooled),
        };
      }),
    ];
  });
}

export function splitTable(entries: readonly SplitEntry[]): Table[] {
  if (entries.length === 0) return [];
  return [
    {
      title: `LoCoMo: tuning conversations (${TUNING_CONVERSATIONS.join(", ")}) apart from the held-back ones (question as query, exact ids, 1–4 pooled, ratios to BM25 on the same questions)`,
      headers: [
        "config",
        "split",
        "conversations",
        "n",
        "R@1",
        "R@5",
        "R@10",
        "R@20",
        "R@256tok",
        "×BM25 R@1",
        "×BM25 R@10",
        "×BM25 R@256tok",
      ],
      align: ["left", "left", "left"],
      rows: entries.map((e) => {
        const p = e.locomo.pooled?.exact;
        const r = e.locomo.ratios?.exact;
        return [
          e.config,
          e.group,
          e.conversations.join(", "),
          String(e.locomo.pooled?.questions ?? 0),
          fmt(p?.recall[1], 3),
          fmt(p?.recall[5], 3),
          fmt(p?.recall[10], 3),
          fmt(p?.recall[20], 3),
          fmt(p?.budgetRecall[256], 3),
          e.config === "bm25" ? "1.00" : fmt(r?.recall[1], 2),
          e.config === "bm25" ? "1.00" : fmt(r?.recall[10], 2),
          e.config === "bm25" ? "1.00" : fmt(r?.budgetRecall[256], 2),
        ];
      }),
    },
  ];
}
