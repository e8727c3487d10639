/**
 * The quality run's tables: lib/report.ts's (recall, budgets, categories, ratios, latency) plus what
 * only an API run has: what each configuration holds after ingestion and how long ingestion took.
 */
import { goalTable } from "../driver/goal";
import { latencyTable, locomoTables, madialTable, ratioTable, type Mode } from "../lib/report";
import { fmt, type Table } from "../lib/table";
import { contextTable } from "./context-block";
import type { LocomoEntry, MadialEntry, QualityResult } from "./result";

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

function locomoSection(configs: readonly LocomoEntry[]): Table[] {
  const modes: Mode[] = ["exact", "text"];
  return [
    ...modes.flatMap((mode) => [...locomoTables(configs, mode), ratioTable(configs, mode)]),
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

function contextSection(context: NonNullable<QualityResult["contextBlock"]>): Table[] {
  const about = `preset ${context.preset}, the question as query, memories only: evidence recall of the whole block vs BM25 (top ${context.bm25Limit}) within the same budget`;
  return [
    ...(context.locomo ? [contextTable(`LoCoMo, categories 1–4 pooled: the context block (${about})`, context.locomo)] : []),
    ...(context.madial ? [contextTable(`MADial-Bench: the context block (${about})`, context.madial)] : []),
  ];
}

export function qualityTables(result: QualityResult): Table[] {
  return [
    ...(result.locomo ? locomoSection(result.locomo.configs) : []),
    ...(result.madial ? madialSection(result.madial.configs) : []),
    ...(result.contextBlock ? contextSection(result.contextBlock) : []),
    ...(result.goals.length > 0 ? [goalTable("Quality goals", result.goals)] : []),
  ];
}
