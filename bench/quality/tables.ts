/**
 * The quality run's tables: lib/report.ts's (recall, budgets, categories, ratios, latency) plus what
 * only an API run has: what each configuration holds after ingestion and how long ingestion took.
 */
import { madialHalvesTable } from "./madial-halves";
import { goalTable } from "../driver/goal";
import { latencyTable, locomoTables, madialTable, ratioTable, type Mode } from "../lib/report";
import { KS } from "../lib/metrics";
import { fmt, type Table } from "../lib/table";
import type { LocomoConfigResult, MadialConfigResult } from "../lib/report";
import { contextTable } from "./context-block";
import { forgettingTables } from "./forgetting";
import { splitTable } from "./split";
import { profileTables } from "./profile-bench";
import type { AblationEntry, EntryPointEntry, LocomoEntry, MadialEntry, QualityResult, RetentionEntry } from "./result";

/** One row per preset (the query modes share the agents): memory held and ingestion. */
export function heldTable(title: string, configs: readonly (LocomoEntry | MadialEntry)[]): Table {
  const perPreset = configs.filter((c) => c.query === "question" && c.held !== null);
  return {
    title,
    headers: [
      "preset",
      "agents",
      "messages",
      "nodes",
      "links",
      "dangling",
      "chars held",
      "remembered",
      "held ÷ remembered",
      "cycles",
      "compressed",
      "deleted",
      "evicted",
      "ingestion s",
      "msg/s",
    ],
    rows: perPreset.map((c) => {
      const h = c.held;
      const seconds = c.ingestionMs === null ? null : c.ingestionMs / 1000;
      return [
        c.preset ?? c.name,
        String(h?.agents ?? 0),
        String(c.messages ?? 0),
        String(h?.nodes ?? 0),
        String(h?.links ?? 0),
        String(h?.danglingLinks ?? 0),
        String(h?.charactersHeld ?? 0),
        String(h?.charactersRemembered ?? 0),
        fmt(c.characters?.ratio, 3),
        String(h?.cycles ?? 0),
        String(h?.nodesCompressed ?? 0),
        String(h?.nodesDeleted ?? 0),
        String(h?.nodesEvicted ?? 0),
        fmt(seconds, 1),
        fmt(seconds && c.messages ? c.messages / seconds : null, 0),
      ];
    }),
  };
}

/** `pooled.answerBearing` of each configuration (lib/answer-bearing.ts), with the exact-id recall beside it. */
export function answerBearingTable(configs: readonly LocomoConfigResult[]): Table {
  return {
    title:
      "LoCoMo, categories 1–4 pooled, grounded questions: answer-bearing recall (an evidence id counts only if the item returned with it still holds ≥ half of the answer's content words)",
    headers: ["config", "grounded", ...KS.map((k) => `R@${k}`), "exact R@10 (all questions)"],
    rows: configs.map((c) => {
      const a = c.pooled?.answerBearing;
      return [c.name, String(a?.grounded ?? 0), ...KS.map((k) => fmt(a?.recall[k], 3)), fmt(c.pooled?.exact.recall[10], 3)];
    }),
  };
}

function locomoSection(configs: readonly LocomoEntry[]): Table[] {
  const modes: Mode[] = ["exact", "text"];
  return [
    ...modes.flatMap((mode) => [...locomoTables(configs, mode), ratioTable(configs, mode)]),
    answerBearingTable(configs),
    heldTable("LoCoMo: memory held after ingestion (summed over conversations)", configs),
    { ...latencyTable(configs), title: "LoCoMo: ingestion time and recall latency (client side)" },
  ];
}

function madialSection(configs: readonly MadialEntry[]): Table[] {
  return [
    madialTable(configs),
    { ...ratioTable(configs, "exact"), title: "MADial-Bench: ratio to the baseline (exact ids)" },
    heldTable("MADial-Bench: memory held after ingestion", configs),
    { ...latencyTable(configs), title: "MADial-Bench: ingestion time and recall latency (client side)" },
  ];
}

const locomoCells = (e: LocomoConfigResult | null): string[] => {
  const p = e?.pooled?.exact;
  const r = e?.ratios?.exact;
  return [
    fmt(p?.recall[1], 3),
    fmt(p?.recall[5], 3),
    fmt(p?.recall[10], 3),
    fmt(p?.recall[20], 3),
    fmt(p?.mrr10, 3),
    fmt(p?.budgetRecall[256], 3),
    fmt(r?.recall[1], 2),
    fmt(r?.recall[10], 2),
    fmt(r?.budgetRecall[256], 2),
  ];
};
const LOCOMO_HEADERS = ["R@1", "R@5", "R@10", "R@20", "MRR@10", "R@256tok", "×BM25 R@1", "×BM25 R@10", "×BM25 R@256tok"];

const madialCells = (e: MadialConfigResult | null): string[] => {
  const a = e?.all?.exact;
  return [fmt(a?.hit[1], 3), fmt(a?.hit[5], 3), fmt(a?.hit[10], 3), fmt(a?.mrr10, 3), fmt(e?.ratios?.exact.hit[5], 2)];
};
const MADIAL_HEADERS = ["hit@1", "hit@5", "hit@10", "MRR@10", "×BM25 hit@5"];

/** Every component of recall's score, added one at a time (quality/extras.ts). */
export function ablationTables(entries: readonly AblationEntry[]): Table[] {
  if (entries.length === 0) return [];
  const tables: Table[] = [];
  if (entries.some((e) => e.locomo)) {
    tables.push({
      title: "Ablations of `default` (question as query): LoCoMo 1–4 pooled, exact ids",
      headers: ["scoring", ...LOCOMO_HEADERS],
      rows: entries.map((e) => [e.step, ...locomoCells(e.locomo)]),
    });
  }
  if (entries.some((e) => e.madial)) {
    tables.push({
      title: "Ablations of `default` (question as query): MADial-Bench, exact ids",
      headers: ["scoring", ...MADIAL_HEADERS],
      rows: entries.map((e) => [e.step, ...madialCells(e.madial)]),
    });
  }
  return tables;
}

/** The search endpoint per mode on `default`'s agents: recall's entry points alone, and their fusion. */
export function entryPointTable(entries: readonly EntryPointEntry[]): Table[] {
  if (entries.length === 0) return [];
  return [
    {
      title: "Entry points: the search endpoint per mode on `default`'s agents (question as query, top 20, exact ids)",
      headers: ["mode", ...LOCOMO_HEADERS.map((h) => `LoCoMo ${h}`), ...MADIAL_HEADERS.map((h) => `MADial ${h}`)],
      rows: entries.map((e) => [e.mode, ...locomoCells(e.locomo), ...madialCells(e.madial)]),
    },
  ];
}

/** Recall after k compression cycles, from the network as remembered (quality/extras.ts). */
export function retentionTable(entries: readonly RetentionEntry[]): Table[] {
  if (entries.length === 0) return [];
  const first = entries[0]?.locomo.pooled?.exact.recall[10];
  return [
    {
      title:
        "Retention curve: `no-forgetting`'s LoCoMo agents, then DESIGN §2 decay, k compression cycles (question as query, exact ids, 1–4 pooled)",
      headers: ["cycles", "R@1", "R@5", "R@10", "R@20", "R@256tok", "R@10 ÷ 0 cycles", "chars held", "held ÷ remembered"],
      rows: entries.map((e) => {
        const p = e.locomo.pooled?.exact;
        return [
          String(e.cycles),
          fmt(p?.recall[1], 3),
          fmt(p?.recall[5], 3),
          fmt(p?.recall[10], 3),
          fmt(p?.recall[20], 3),
          fmt(p?.budgetRecall[256], 3),
          fmt(first && p ? p.recall[10] / first : null, 2),
          String(e.held),
          fmt(e.ratio, 3),
        ];
      }),
    },
  ];
}

function contextSection(context: NonNullable<QualityResult["contextBlock"]>): Table[] {
  const about = `preset ${context.preset}, the question as query, memories only: evidence recall of the whole block vs BM25 (top ${context.bm25Limit}) within the same budget`;
  return [
    ...(context.locomo ? [contextTable(`LoCoMo, categories 1–4 pooled: the context block (${about})`, context.locomo)] : []),
    ...(context.madial ? [contextTable(`MADial-Bench: the context block (${about})`, context.madial)] : []),
  ];
}

function meaningTables(meaning: QualityResult["meaning"]): Table[] {
  const tables: Table[] = [];
  if (meaning.entities) {
    tables.push({
      title: "Entities: annotated dev texts (bench/quality/annotations), one fresh agent per text, the entities linked to its segments",
      headers: ["language", "split", "texts", "returned", "matching", "precision", "must", "found", "recall"],
      rows: meaning.entities.groups.map((g) => [
        g.lang,
        g.split,
        String(g.scores.texts),
        String(g.scores.returned),
        String(g.scores.matched),
        fmt(g.scores.precision, 3),
        String(g.scores.must),
        String(g.scores.found),
        fmt(g.scores.recall, 3),
      ]),
      align: ["left", "left"],
    });
  }
  if (meaning.conflicts.length > 0) {
    tables.push({
      title: "Conflict marks after ingestion: memories superseded by an update or linked as a contradiction",
      headers: ["config", "dataset", "memories", "marked", "per 1,000"],
      rows: meaning.conflicts.map((c) => [c.preset, c.dataset, String(c.memories), String(c.marked), fmt(c.perThousand, 1)]),
      align: ["left", "left"],
    });
  }
  if (meaning.summaries.length > 0) {
    tables.push({
      title: "Episode summaries: made of the conversation's clauses (quality/meaning.ts clausal) or a bag of its words",
      headers: ["config", "dataset", "episodes", "word bags"],
      rows: meaning.summaries.map((c) => [c.preset, c.dataset, String(c.episodes), String(c.wordBags)]),
      align: ["left", "left"],
    });
  }
  return tables;
}

export function qualityTables(result: QualityResult): Table[] {
  return [
    ...meaningTables(result.meaning),
    ...(result.locomo ? locomoSection(result.locomo.configs) : []),
    ...splitTable(result.split),
    ...(result.madial ? madialSection(result.madial.configs) : []),
    ...madialHalvesTable(result.madialHalves),
    ...ablationTables(result.ablations),
    ...entryPointTable(result.entryPoints),
    ...retentionTable(result.retention),
    ...forgettingTables(result.forgetting.atPressure, result.forgetting.curve),
    ...(result.contextBlock ? contextSection(result.contextBlock) : []),
    ...profileTables(result.profile),
    ...(result.goals.length > 0 ? [goalTable("Quality goals", result.goals)] : []),
  ];
}
