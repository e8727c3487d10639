/**
 * Benchmark results: the JSON shape written to disk, and the tables printed to stdout (plain text)
 * and pasted into docs/BENCHMARKS.md (Markdown).
 *
 * JSON shape (`BenchResult`, keys always present and in this order; absent values are null):
 * {
 *   "schema": "agent-memory-bench/1",
 *   "settings": { "ks": [1,5,10,20], "budgets": [256,512,1024,2048], "mrrCutoff": 10, "limit": 20,
 *                 "tokens": "<rule>", "bm25": { "k1": 1.2, "b": 0.75 } },
 *   "locomo": null | { "file", "conversations", "questions", "evidence": {counts of EvidenceReport},
 *                      "configs": [LocomoConfigResult] },
 *   "madial": null | { "file", "memories", "items", "configs": [MadialConfigResult] }
 * }
 * LocomoConfigResult = { "name", "baseline": bool, "ingestionMs": number|null, "latencyMs": Percentiles|null,
 *   "pooled": Aggregate|null, "byCategory": {"1": Aggregate, ...}, "adversarial": Aggregate|null,
 *   "ratios": AggregateRatios|null }   (ratios: pooled, to the baseline's pooled; null for the baseline)
 * MadialConfigResult = { "name", "baseline", "ingestionMs", "latencyMs", "all": Aggregate|null, "ratios" }
 * Aggregate = { "questions", "exact": ModeScores, "text": ModeScores, "meanRecalledTokens", "meanItems" }
 * ModeScores = { "recall": {"1","5","10","20"}, "hit": {same}, "mrr10", "budgetRecall": {"256","512","1024","2048"} }
 * Numbers are rounded to 4 decimals in the JSON.
 *
 * Pure module, runs in workerd.
 */
import {
  aggregate,
  percentiles,
  ratiosToBaseline,
  summarizeByCategory,
  type Aggregate,
  type AggregateRatios,
  type CategorisedScores,
  type CategorySummary,
  type Percentiles,
} from "./aggregate";
import { BUDGETS, KS, MRR_CUTOFF, type ModeScores } from "./metrics";
import type { EvidenceReport } from "./locomo-evidence";
import { LOCOMO_CATEGORY_NAMES } from "./locomo";
import { fmt, type Table } from "./table";

export const RESULT_SCHEMA = "agent-memory-bench/1";

export interface Settings {
  ks: number[];
  budgets: number[];
  mrrCutoff: number;
  /** Items asked for per question. */
  limit: number;
  /** How tokens were counted for budgets. */
  tokens: string;
  bm25: { k1: number; b: number };
}

export interface ConfigCommon {
  name: string;
  baseline: boolean;
  ingestionMs: number | null;
  latencyMs: Percentiles | null;
}

export interface LocomoConfigResult extends ConfigCommon, CategorySummary {
  ratios: AggregateRatios | null;
}

export interface MadialConfigResult extends ConfigCommon {
  all: Aggregate | null;
  ratios: AggregateRatios | null;
}

export type EvidenceCounts = Omit<EvidenceReport, "changes">;

export interface BenchResult {
  schema: typeof RESULT_SCHEMA;
  settings: Settings;
  locomo: {
    file: string;
    conversations: number;
    questions: number;
    evidence: EvidenceCounts;
    configs: LocomoConfigResult[];
  } | null;
  madial: { file: string; memories: number; items: number; configs: MadialConfigResult[] } | null;
}

export interface ConfigRun {
  name: string;
  /** True for the BM25 baseline (its ratios are null). */
  baseline?: boolean;
  /** Wall time of ingestion (remember calls until the queue drained), when measured. */
  ingestionMs?: number | null;
  /** One recall latency per question, when measured. */
  latenciesMs?: readonly number[];
}

function common(run: ConfigRun): ConfigCommon {
  const latencies = run.latenciesMs ?? [];
  return {
    name: run.name,
    baseline: run.baseline ?? false,
    ingestionMs: run.ingestionMs ?? null,
    latencyMs: percentiles(latencies),
  };
}

/** A LoCoMo configuration's entry, keys in the documented order; ratios against `baselinePooled`. */
export function locomoConfigResult(
  run: ConfigRun,
  rows: readonly CategorisedScores[],
  baselinePooled: Aggregate | null = null,
): LocomoConfigResult {
  const summary = summarizeByCategory(rows);
  const { pooled } = summary;
  return {
    ...common(run),
    pooled,
    byCategory: summary.byCategory,
    adversarial: summary.adversarial,
    ratios: !run.baseline && pooled && baselinePooled ? ratiosToBaseline(pooled, baselinePooled) : null,
  };
}

/** A MADial configuration's entry (all items together); ratios against `baselineAll`. */
export function madialConfigResult(
  run: ConfigRun,
  rows: readonly CategorisedScores[],
  baselineAll: Aggregate | null = null,
): MadialConfigResult {
  const all = aggregate(rows.map((r) => r.scores));
  return {
    ...common(run),
    all,
    ratios: !run.baseline && all && baselineAll ? ratiosToBaseline(all, baselineAll) : null,
  };
}

/** The result as JSON text, numbers rounded to 4 decimals so that reruns diff cleanly. */
export function resultJson(result: BenchResult): string {
  return JSON.stringify(result, (_key, value: unknown) => (typeof value === "number" ? Math.round(value * 1e4) / 1e4 : value), 2);
}

export type Mode = "exact" | "text";
const MODE_LABEL: Record<Mode, string> = { exact: "exact ids", text: "text scoring" };

const rankHeaders = [...KS.map((k) => `R@${k}`), ...KS.map((k) => `hit@${k}`), `MRR@${MRR_CUTOFF}`];
const rankCells = (m: ModeScores): string[] => [...KS.map((k) => fmt(m.recall[k])), ...KS.map((k) => fmt(m.hit[k])), fmt(m.mrr10)];

function aggregateRow(label: string[], agg: Aggregate | null, mode: Mode): string[] {
  return agg ? [...label, String(agg.questions), ...rankCells(agg[mode])] : [...label, "0"];
}

function budgetRow(name: string, agg: Aggregate | null, mode: Mode): string[] {
  if (!agg) return [name, "0"];
  const m = agg[mode];
  return [
    name,
    String(agg.questions),
    ...BUDGETS.map((b) => fmt(m.budgetRecall[b])),
    fmt(agg.meanRecalledTokens, 0),
    fmt(agg.meanItems, 1),
  ];
}

const CATEGORY_NAMES: ReadonlyMap<string, string> = new Map(Object.entries(LOCOMO_CATEGORY_NAMES));
const categoryLabel = (c: string): string => `${c} ${CATEGORY_NAMES.get(c) ?? ""}`.trim();

/** The README's LoCoMo tables for one scoring mode: pooled 1–4, budgets, per category, category 5. */
export function locomoTables(configs: readonly LocomoConfigResult[], mode: Mode): Table[] {
  const label = MODE_LABEL[mode];
  const categories = [...new Set(configs.flatMap((c) => Object.keys(c.byCategory)))]
    .filter((c) => c !== "5")
    .sort((a, b) => Number(a) - Number(b));
  return [
    {
      title: `LoCoMo, categories 1–4 pooled (${label})`,
      headers: ["config", "n", ...rankHeaders],
      rows: configs.map((c) => aggregateRow([c.name], c.pooled, mode)),
    },
    {
      title: `LoCoMo, categories 1–4 pooled: recall within a token budget (${label})`,
      headers: ["config", "n", ...BUDGETS.map((b) => `R@${b}tok`), "tokens", "items"],
      rows: configs.map((c) => budgetRow(c.name, c.pooled, mode)),
    },
    {
      title: `LoCoMo per category (${label})`,
      headers: ["config", "category", "n", ...rankHeaders],
      align: ["left", "left"],
      rows: categories.flatMap((cat) => configs.map((c) => aggregateRow([c.name, categoryLabel(cat)], c.byCategory[cat] ?? null, mode))),
    },
    {
      title: `LoCoMo category 5, adversarial, apart (${label})`,
      headers: ["config", "n", ...rankHeaders],
      rows: configs.map((c) => aggregateRow([c.name], c.adversarial, mode)),
    },
  ];
}

/** MADial: hit@1/5/10 and MRR@10 of the gold memory, both scoring modes. */
export function madialTable(configs: readonly MadialConfigResult[]): Table {
  const modes: Mode[] = ["exact", "text"];
  return {
    title: "MADial-Bench (zh): gold memory",
    headers: ["config", "scoring", "n", "hit@1", "hit@5", "hit@10", `MRR@${MRR_CUTOFF}`],
    align: ["left", "left"],
    rows: configs.flatMap((c) =>
      modes.map((mode) => {
        const m = c.all?.[mode];
        const n = String(c.all?.questions ?? 0);
        return [c.name, MODE_LABEL[mode], n, fmt(m?.hit[1]), fmt(m?.hit[5]), fmt(m?.hit[10]), fmt(m?.mrr10)];
      }),
    ),
  };
}

/** Ingestion time and recall latency per configuration (rows only for configurations that have any). */
export function latencyTable(configs: readonly ConfigCommon[]): Table {
  return {
    title: "Ingestion and recall latency",
    headers: ["config", "ingestion s", "n", "p50 ms", "p95 ms", "p99 ms"],
    rows: configs
      .filter((c) => c.ingestionMs !== null || c.latencyMs !== null)
      .map((c) => [
        c.name,
        fmt(c.ingestionMs === null ? null : c.ingestionMs / 1000, 1),
        String(c.latencyMs?.count ?? 0),
        fmt(c.latencyMs?.p50, 0),
        fmt(c.latencyMs?.p95, 0),
        fmt(c.latencyMs?.p99, 0),
      ]),
  };
}

/** Pooled numbers of each configuration as a multiple of the baseline's. */
export function ratioTable(configs: readonly { name: string; ratios: AggregateRatios | null }[], mode: Mode): Table {
  return {
    title: `Ratio to the baseline (${MODE_LABEL[mode]})`,
    headers: ["config", ...KS.map((k) => `R@${k}`), `MRR@${MRR_CUTOFF}`, ...BUDGETS.map((b) => `R@${b}tok`), "tokens"],
    rows: configs
      .filter((c) => c.ratios !== null)
      .map((c) => {
        const r = c.ratios;
        const m = r?.[mode];
        return [
          c.name,
          ...KS.map((k) => fmt(m?.recall[k], 2)),
          fmt(m?.mrr10, 2),
          ...BUDGETS.map((b) => fmt(m?.budgetRecall[b], 2)),
          fmt(r?.meanRecalledTokens, 2),
        ];
      }),
  };
}
