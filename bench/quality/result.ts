/**
 * The quality result: `BenchResult` of lib/report.ts (its shape is kept as documented there), each
 * configuration entry extended with what only an API run has, and the run's provenance appended.
 *
 * Configuration entries are named `<preset>/<query mode>` ("default/question", "pressure/keywords")
 * plus the baseline "bm25". Keys added to each entry, after the documented ones:
 *   "preset": string|null, "query": "question"|"keywords"|null,
 *   "characters": {"held", "remembered", "ratio"}|null   (held ÷ remembered, summed over agents),
 *   "held": Held|null   (nodes, links, cycles, compressed/deleted/evicted nodes, summed over agents),
 *   "messages", "rememberCalls", "extraCycles": number|null, "emptyQueries": number|null
 * Keys added at the top level, after "madial": "presets" (name, description, config sent, config in
 * force), "contextBlock" (context-block.ts: per dataset and budget, the block's evidence recall next to
 * BM25's within the same budget), "goals" (see goals.ts), "stalls" (driver/http.ts) and "run"
 * (command, date, machine, commit, wallMs, quick). Timing fields ("ingestionMs", "latencyMs", "stalls", "run") differ between
 * runs; every other number is deterministic.
 */
import { BM25_B, BM25_K1 } from "../lib/bm25";
import { BUDGETS, KS, MRR_CUTOFF } from "../lib/metrics";
import {
  locomoConfigResult,
  madialConfigResult,
  RESULT_SCHEMA,
  type BenchResult,
  type ConfigRun,
  type LocomoConfigResult,
  type MadialConfigResult,
  type Settings,
} from "../lib/report";
import type { Aggregate, CategorisedScores } from "../lib/aggregate";
import type { RunInfo } from "../driver/run-info";
import { QUERY_MODES, RECALL_LIMIT, type QueryMode } from "./ask";
import type { Goal } from "./goals";
import type { Held, PresetRun } from "./runs";
import { CONTEXT_BASELINE_LIMIT, summarizeContexts, type ContextSummary } from "./context-block";

export interface ApiExtras {
  preset: string | null;
  query: QueryMode | null;
  characters: { held: number; remembered: number; ratio: number | null } | null;
  held: Held | null;
  messages: number | null;
  rememberCalls: number | null;
  extraCycles: number | null;
  emptyQueries: number | null;
}

export type LocomoEntry = LocomoConfigResult & ApiExtras;
export type MadialEntry = MadialConfigResult & ApiExtras;

export interface QualitySettings extends Settings {
  queryModes: QueryMode[];
  keywords: string;
}

export interface QualityResult extends BenchResult {
  settings: QualitySettings;
  locomo: (NonNullable<BenchResult["locomo"]> & { configs: LocomoEntry[] }) | null;
  madial: (NonNullable<BenchResult["madial"]> & { configs: MadialEntry[] }) | null;
  presets: { name: string; description: string; sent: Record<string, number | boolean>; inForce: Record<string, number | boolean> }[];
  /** The context block of the preset that asks for it (question as query); null where not run. */
  contextBlock: { preset: string; bm25Limit: number; locomo: ContextSummary[] | null; madial: ContextSummary[] | null } | null;
  goals: Goal[];
  /** Re-sends by the stall guard (driver/http.ts), per endpoint; timing-dependent like latencies. */
  stalls: Record<string, number>;
  run: (RunInfo & { wallMs: number; quick: boolean }) | null;
}

export function qualitySettings(): QualitySettings {
  return {
    ks: [...KS],
    budgets: [...BUDGETS],
    mrrCutoff: MRR_CUTOFF,
    limit: RECALL_LIMIT,
    tokens: "approx: 1 per CJK character, other characters ≈4 per token",
    bm25: { k1: BM25_K1, b: BM25_B },
    queryModes: [...QUERY_MODES],
    keywords: "distinct content words of the question, unstemmed, names kept, at most 32 (lib/tokens.ts queryKeywords)",
  };
}

const NO_EXTRAS: ApiExtras = {
  preset: null,
  query: null,
  characters: null,
  held: null,
  messages: null,
  rememberCalls: null,
  extraCycles: null,
  emptyQueries: null,
};

function extras(run: PresetRun, mode: QueryMode): ApiExtras {
  const { charactersHeld: held, charactersRemembered: remembered } = run.held;
  return {
    preset: run.preset.name,
    query: mode,
    characters: { held, remembered, ratio: remembered === 0 ? null : held / remembered },
    held: run.held,
    messages: run.messages,
    rememberCalls: run.rememberCalls,
    extraCycles: run.extraCycles,
    emptyQueries: run.emptyQueries[mode],
  };
}

export const entryName = (preset: string, mode: QueryMode): string => `${preset}/${mode}`;

function configRun(run: PresetRun, mode: QueryMode): ConfigRun {
  return { name: entryName(run.preset.name, mode), ingestionMs: run.ingestionMs, latenciesMs: run.latenciesMs[mode] };
}

/** Baseline first, then each preset in both query modes, ratios against the baseline's pooled numbers. */
export function locomoEntries(baselineRows: readonly CategorisedScores[], runs: readonly PresetRun[]): LocomoEntry[] {
  const baseline = locomoConfigResult({ name: "bm25", baseline: true }, baselineRows);
  return [
    { ...baseline, ...NO_EXTRAS },
    ...runs.flatMap((run) =>
      QUERY_MODES.map((mode) => ({ ...locomoConfigResult(configRun(run, mode), run.rows[mode], baseline.pooled), ...extras(run, mode) })),
    ),
  ];
}

export function madialEntries(baselineRows: readonly CategorisedScores[], runs: readonly PresetRun[]): MadialEntry[] {
  const baseline = madialConfigResult({ name: "bm25", baseline: true }, baselineRows);
  return [
    { ...baseline, ...NO_EXTRAS },
    ...runs.flatMap((run) =>
      QUERY_MODES.map((mode) => ({ ...madialConfigResult(configRun(run, mode), run.rows[mode], baseline.all), ...extras(run, mode) })),
    ),
  ];
}

export function presetsSection(runs: readonly PresetRun[]): QualityResult["presets"] {
  return runs.map((r) => ({ name: r.preset.name, description: r.preset.description, sent: r.preset.config, inForce: r.config }));
}

export const emptyQualityResult = (): QualityResult => ({
  schema: RESULT_SCHEMA,
  settings: qualitySettings(),
  locomo: null,
  madial: null,
  presets: [],
  contextBlock: null,
  goals: [],
  stalls: {},
  run: null,
});

/** The context block's summaries of the first preset that asked for it, against BM25 on the same questions. */
export function contextSection(
  locomoRuns: readonly PresetRun[],
  madialRuns: readonly PresetRun[],
  bm25: { locomo: Aggregate | null; madial: Aggregate | null },
): QualityResult["contextBlock"] {
  const locomo = locomoRuns.find((r) => r.context !== null);
  const madial = madialRuns.find((r) => r.context !== null);
  const preset = locomo?.preset.name ?? madial?.preset.name;
  if (preset === undefined) return null;
  return {
    preset,
    bm25Limit: CONTEXT_BASELINE_LIMIT,
    locomo: locomo?.context ? summarizeContexts(locomo.context, true, bm25.locomo) : null,
    madial: madial?.context ? summarizeContexts(madial.context, false, bm25.madial) : null,
  };
}
