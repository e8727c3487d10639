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
 * force), "ablations" (per step of quality/extras.ts ABLATION_STEPS: its recall parameters and the
 * LoCoMo and MADial entries of `default` asked with them), "entryPoints" (per search mode, the same
 * entries for the search endpoint on `default`'s agents), "retention" (per number of cycles, the
 * LoCoMo entry of `no-forgetting`'s agents after that many cycles at DESIGN §2's decay, and the
 * characters they held), "split" (quality/split.ts: question mode per tuning/held-back group of
 * conversations, with BM25 on the same questions), "contextBlock" (context-block.ts: per dataset
 * and budget, the block's evidence recall next to BM25's within the same budget), "forgetting"
 * (forgetting.ts: `pressure` beside naive policies at the same characters held), "profile"
 * (profile-bench.ts: perConversation, pooled {profile, recency, random, oracle, chars}, participants,
 * groups, madial), "goals" (see
 * goals.ts), "stalls" (driver/http.ts) and "run" (command, date, machine, commit, wallMs, quick).
 * Timing fields ("ingestionMs", "latencyMs", "stalls", "run") differ between
 * runs; every other number is deterministic.
 */
import type { Config } from "../driver/schemas";
import type { MadialHalfEntry } from "./madial-halves";
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
import { ratiosToBaseline, type Aggregate, type CategorisedScores } from "../lib/aggregate";
import type { RunInfo } from "../driver/run-info";
import { QUERY_MODES, RECALL_LIMIT, type QueryMode } from "./ask";
import { ABLATION_STEPS, SEARCH_MODES, type SearchMode } from "./extras";
import type { EntityRun } from "./meaning";
import type { Goal } from "./goals";
import type { Held, PresetRun } from "./runs";
import type { SplitEntry } from "./split";
import { CONTEXT_BASELINE_LIMIT, summarizeContexts, type ContextSummary } from "./context-block";
import type { CurvePoint, ForgettingEntry } from "./forgetting";
import type { ProfileSection } from "./profile-bench";

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

export interface AblationEntry {
  step: string;
  params: Record<string, number | boolean>;
  locomo: LocomoConfigResult | null;
  madial: MadialConfigResult | null;
}

export interface EntryPointEntry {
  mode: SearchMode;
  locomo: LocomoConfigResult | null;
  madial: MadialConfigResult | null;
}

export interface RetentionEntry {
  cycles: number;
  held: number;
  remembered: number;
  ratio: number | null;
  locomo: LocomoConfigResult;
}

export interface QualityResult extends BenchResult {
  settings: QualitySettings;
  locomo: (NonNullable<BenchResult["locomo"]> & { configs: LocomoEntry[] }) | null;
  madial: (NonNullable<BenchResult["madial"]> & { configs: MadialEntry[] }) | null;
  presets: { name: string; description: string; sent: Record<string, number | boolean>; inForce: Config }[];
  ablations: AblationEntry[];
  entryPoints: EntryPointEntry[];
  retention: RetentionEntry[];
  split: SplitEntry[];
  /** The context block of the preset that asks for it (question as query); null where not run. */
  contextBlock: { preset: string; bm25Limit: number; locomo: ContextSummary[] | null; madial: ContextSummary[] | null } | null;
  /** forgetting.ts: the network beside naive forgetting at the same characters held. */
  forgetting: { atPressure: ForgettingEntry[]; curve: CurvePoint[] };
  /** madial-halves.ts: MADial per half of its items (the first tuned the semantic arm's weight). */
  madialHalves: MadialHalfEntry[];
  goals: Goal[];
  /** Re-sends by the stall guard (driver/http.ts), per endpoint; timing-dependent like latencies. */
  stalls: Record<string, number>;
  /** Entities, conflict marks and summaries (quality/meaning.ts). */
  meaning: MeaningSection;
  /** The profile's coverage of the annotators' facts (profile-bench.ts); null where not run. */
  profile: ProfileSection | null;
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

export const NO_EXTRAS: ApiExtras = {
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

/** The suffix of the semantic arm's configurations (semantic-arm.ts). */
export const SEMANTIC = "semantic";

/**
 * The semantic arm's MADial configurations: `<preset>/<mode>/semantic` for recall and
 * `search:<mode>/semantic` for the search endpoint's modes, ratios against the same BM25.
 */
export function semanticEntries(run: PresetRun, baseline: MadialConfigResult | undefined): MadialEntry[] {
  const recall = madialEntries([], [run])
    .filter((e) => !e.baseline)
    .map((e) => ({ ...e, name: `${e.name}/${SEMANTIC}`, ratios: e.all && baseline?.all ? ratiosToBaseline(e.all, baseline.all) : null }));
  const search = entryPointEntries(undefined, run, undefined, baseline).flatMap((e) =>
    e.madial ? [{ ...e.madial, name: `search:${e.mode}/${SEMANTIC}`, ...NO_EXTRAS, preset: run.preset.name }] : [],
  );
  return [...recall, ...search];
}

export function presetsSection(runs: readonly PresetRun[]): QualityResult["presets"] {
  return runs.map((r) => ({ name: r.preset.name, description: r.preset.description, sent: r.preset.config, inForce: r.config }));
}

/** The ablation steps of the run that asked them (`default`), ratios against the baselines. */
export function ablationEntries(
  locomoRun: PresetRun | undefined,
  madialRun: PresetRun | undefined,
  locomoBaseline: LocomoConfigResult | undefined,
  madialBaseline: MadialConfigResult | undefined,
): AblationEntry[] {
  if (!(locomoRun?.ablations.length ?? 0) && !(madialRun?.ablations.length ?? 0)) return [];
  return ABLATION_STEPS.map((step, i) => {
    const locomoRows = locomoRun?.ablations[i];
    const madialRows = madialRun?.ablations[i];
    return {
      step: step.name,
      params: step.params,
      locomo: locomoRows ? locomoConfigResult({ name: step.name }, locomoRows, locomoBaseline?.pooled ?? null) : null,
      madial: madialRows ? madialConfigResult({ name: step.name }, madialRows, madialBaseline?.all ?? null) : null,
    };
  });
}

export function entryPointEntries(
  locomoRun: PresetRun | undefined,
  madialRun: PresetRun | undefined,
  locomoBaseline: LocomoConfigResult | undefined,
  madialBaseline: MadialConfigResult | undefined,
): EntryPointEntry[] {
  if (!locomoRun?.searchModes && !madialRun?.searchModes) return [];
  return SEARCH_MODES.map((mode) => {
    const locomoRows = locomoRun?.searchModes?.[mode];
    const madialRows = madialRun?.searchModes?.[mode];
    return {
      mode,
      locomo: locomoRows ? locomoConfigResult({ name: mode }, locomoRows, locomoBaseline?.pooled ?? null) : null,
      madial: madialRows ? madialConfigResult({ name: mode }, madialRows, madialBaseline?.all ?? null) : null,
    };
  });
}

export function retentionEntries(run: PresetRun | undefined, baseline: LocomoConfigResult | undefined): RetentionEntry[] {
  return (run?.retention ?? []).map((point) => ({
    cycles: point.cycles,
    held: point.held,
    remembered: point.remembered,
    ratio: point.remembered > 0 ? point.held / point.remembered : null,
    locomo: locomoConfigResult({ name: `${point.cycles} cycles` }, point.rows, baseline?.pooled ?? null),
  }));
}

export interface MeaningSection {
  /** The entity benchmark; null when the run had no annotated data or it was not asked. */
  entities: EntityRun | null;
  conflicts: { preset: string; dataset: string; memories: number; marked: number; perThousand: number | null }[];
  summaries: { preset: string; dataset: string; episodes: number; wordBags: number; examples: string[] }[];
}

/** The conflict marks and summary checks of every run. */
export function meaningSection(runs: readonly { dataset: string; run: PresetRun }[], entities: EntityRun | null): MeaningSection {
  return {
    entities,
    conflicts: runs.map(({ dataset, run }) => ({
      preset: run.preset.name,
      dataset,
      memories: run.conflicts.memories,
      marked: run.conflicts.marked,
      perThousand: run.conflicts.memories > 0 ? (1000 * run.conflicts.marked) / run.conflicts.memories : null,
    })),
    summaries: runs.map(({ dataset, run }) => ({ preset: run.preset.name, dataset, ...run.summaries })),
  };
}

export const emptyQualityResult = (): QualityResult => ({
  schema: RESULT_SCHEMA,
  settings: qualitySettings(),
  locomo: null,
  madial: null,
  presets: [],
  ablations: [],
  entryPoints: [],
  retention: [],
  split: [],
  contextBlock: null,
  forgetting: { atPressure: [], curve: [] },
  madialHalves: [],
  goals: [],
  stalls: {},
  meaning: { entities: null, conflicts: [], summaries: [] },
  profile: null,
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
