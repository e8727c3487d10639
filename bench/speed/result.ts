/**
 * The speed result (bench/results/speed.json) and its goals. Shape, keys always present in this
 * order (absent values null; latencies in ms, client side; ratios are to the floor measured in the
 * same phase, floor.ts):
 * {
 *   "schema": "agent-memory-bench-speed/1",
 *   "settings": { "quick", "streamMessages", "batch", "networkTargets", "recallSamples",
 *                 "searchSamples", "cycles", "scanProbes", "singleOpSamples", "agents",
 *                 "messagesPerAgent", "loadAgents", "loadMessagesPerAgent", "floor" },
 *   "ingest": { "en": IngestResult, "zh": IngestResult }            (ingest-bench.ts)
 *   "singleOps": SingleOpsResult                                    (single-ops-bench.ts)
 *   "networks": [ { "target", "nodes", "segments", "entities", "links", "messages", "buildMs",
 *                   "recall": RecallLatency, "search": SearchLatency, "context": ContextLatency, "compress": CompressResult,
 *                   "scanWait": ScanWaitResult } ],                 (scan-wait-bench.ts)
 *   "isolation": IsolationResult,                                   (isolation-bench.ts)
 *   "load": LoadResult,                                             (load-bench.ts)
 *   "storage": Storage,
 *   "production": ProductionResult,                                 (production-bench.ts)
 *   "cold": { "settings", "limits", "agents", "runs": [ { "size", "nodes", "links", "cached",
 *             "rttMs", "call", "rounds", "coldP50Ms", "coldP95Ms", "warmP50Ms", "warmP95Ms",
 *             "sequentialStatements", "statements", "rowsRead", "warmSequentialStatements",
 *             "warmRowsRead" } ], "freshIsolate": [...], "wallMs" }  (cold-bench.ts)
 *   "goals": [Goal], "stalls": { endpoint: re-sends }, "run": { command, date, machine, commit, wallMs }
 * }
 * LatencySummary = { "ms": {count,p50,p95,p99}, "floorMs": {same}, "ratio": {p50,p95,p99} }.
 */
import type { Goal } from "../driver/goal";
import type { RunInfo } from "../driver/run-info";
import { fmt } from "../lib/table";
import type { ColdResult } from "./cold-result";
import { coldGoals } from "./cold-report";
import type { CompressResult } from "./compress-bench";
import type { IngestResult } from "./ingest-bench";
import type { IsolationResult } from "./isolation-bench";
import type { LoadResult } from "./load-bench";
import type { ProductionResult } from "./production-bench";
import type { ContextLatency, RecallLatency, SearchLatency } from "./latency-bench";
import type { ScanWaitResult } from "./scan-wait-bench";
import type { SingleOpsResult } from "./single-ops-bench";

export const SPEED_SCHEMA = "agent-memory-bench-speed/1";

export interface SpeedSettings {
  quick: boolean;
  streamMessages: number;
  batch: number;
  networkTargets: number[];
  recallSamples: number;
  searchSamples: number;
  cycles: number;
  scanProbes: number;
  singleOpSamples: number;
  agents: number;
  messagesPerAgent: number;
  /** The load run (load-bench.ts): agents written at once, messages each. */
  loadAgents: number;
  loadMessagesPerAgent: number;
  floor: string;
}

export interface NetworkResult {
  target: number;
  nodes: number;
  segments: number;
  entities: number;
  links: number;
  messages: number;
  buildMs: number;
  recall: RecallLatency;
  search: SearchLatency;
  context: ContextLatency;
  compress: CompressResult;
  scanWait: ScanWaitResult;
}

export interface Storage {
  /** Nodes and links of every agent alive when the files were measured. */
  agents: number;
  nodes: number;
  links: number;
  d1: { emptyBytes: number; bytes: number; walBytes: number; bytesPerNode: number | null; withoutWalPerNode: number | null };
  durableObjects: { bytes: number; bytesPerNode: number | null };
  /** From the agents' stats (`vector_index.bytes`) when reported, else null ("n/a"). */
  vectorIndex: { bytes: number | null; bytesPerNode: number | null };
}

export interface SpeedResult {
  schema: typeof SPEED_SCHEMA;
  settings: SpeedSettings;
  ingest: { en: IngestResult | null; zh: IngestResult | null };
  singleOps: SingleOpsResult | null;
  networks: NetworkResult[];
  isolation: IsolationResult | null;
  load: LoadResult | null;
  storage: Storage | null;
  /** The production-shaped run (production-bench.ts); null when not run. */
  production: ProductionResult | null;
  /** The cold path (cold-bench.ts); null when not run. */
  cold: ColdResult | null;
  goals: Goal[];
  stalls: Record<string, number>;
  run: (RunInfo & { wallMs: number }) | null;
}

/** The model-economy goals, measured by the production-shaped run. */
function productionGoals(p: ProductionResult | null): Goal[] {
  const note = p === null ? "not measured" : p.settings.timeScale === 1 ? null : `time scaled ×${p.settings.timeScale}: smoke only`;
  const recallBound = p?.recall.floorP95Ms == null ? null : p.recall.floorP95Ms + 200;
  return [
    {
      id: "production-text-per-remember",
      goal: "text calls per remember ≤ 1.2 (simulated Workers AI)",
      measured: p ? fmt(p.calls.textPerRemember, 2) : "–",
      met: p ? p.calls.textPerRemember <= 1.2 : null,
      note,
    },
    {
      id: "production-text-per-recall",
      goal: "text calls per free-text recall = 0",
      measured: p ? fmt(p.calls.textPerRecall, 2) : "–",
      met: p ? p.calls.textPerRecall === 0 : null,
      note,
    },
    {
      id: "production-ingest",
      goal: "one agent ingests ≥ 25 messages/s under the simulated latency",
      measured: p ? `${fmt(p.ingest.messagesPerSecond, 1)}/s` : "–",
      met: p ? p.ingest.messagesPerSecond >= 25 : null,
      note,
    },
    {
      id: "production-accounts",
      goal: "≥ 2,400 messages/min across the account's agents, no 429 reaching a task",
      measured: p
        ? `${fmt(p.accounts.messagesPerMinute, 0)}/min (${p.accounts.agents} agents${p.accounts.completed ? "" : ", stopped at the cap"}), ${p.accounts.fallbacks} fallbacks, ${p.accounts.failedTasks} failed`
        : "–",
      met: p ? p.accounts.messagesPerMinute >= 2400 && p.accounts.fallbacks === 0 && p.accounts.failedTasks === 0 : null,
      note,
    },
    {
      id: "production-recall-p95",
      goal: "free-text recall p95 ≤ the floor's p95 + 200 ms",
      measured: p ? `${fmt(p.recall.p95Ms, 0)} ms (floor ${fmt(p.recall.floorP95Ms, 0)} ms)` : "–",
      met: p?.recall.p95Ms == null || recallBound === null ? null : p.recall.p95Ms <= recallBound,
      note,
    },
  ];
}

export function speedGoals(r: SpeedResult): Goal[] {
  const largest = r.networks.reduce<NetworkResult | null>((a, n) => (a === null || n.nodes > a.nodes ? n : a), null);
  const size = largest ? `largest agent: ${largest.nodes} nodes` : "no agent measured";
  const note = (n: number): string | null => (r.settings.quick || n < 10_000 ? `${r.settings.quick ? "--quick; " : ""}${size}` : null);
  const ingests = [r.ingest.en, r.ingest.zh].filter((x): x is IngestResult => x !== null);
  const goals: Goal[] = [];
  const p95 = largest?.recall.latency.ratio.p95 ?? null;
  goals.push({
    id: "recall-p95-10k",
    goal: "recall p95 at 10k nodes ≤ 3 × the floor",
    measured: largest ? `${fmt(largest.recall.latency.ms?.p95, 0)} ms = ×${fmt(p95, 2)}` : "–",
    met: p95 === null ? null : p95 <= 3,
    note: largest ? note(largest.nodes) : "not measured",
  });
  const profiles = largest ? [largest.context.profile, largest.context.participantProfile] : [];
  const profileP95 = profiles.length === 0 ? null : Math.max(...profiles.map((p) => p.ms?.p95 ?? Infinity));
  goals.push({
    id: "profile-p95-10k",
    goal: "profile p95 at 10k nodes, warm, < 50 ms (the whole agent's and one participant's)",
    measured: largest
      ? `whole ${fmt(largest.context.profile.ms?.p95, 0)} ms, ${largest.context.participantProfile.participant} ${fmt(largest.context.participantProfile.ms?.p95, 0)} ms`
      : "–",
    met: profileP95 === null ? null : profileP95 < 50,
    note: largest ? note(largest.nodes) : "not measured",
  });
  goals.push({
    id: "remember-ack-p99",
    goal: "remember acknowledgement p99 ≤ 2 × the floor",
    measured: ingests.map((i) => `${i.lang} ${fmt(i.ack.ms?.p99, 0)} ms = ×${fmt(i.ack.ratio.p99, 2)}`).join(", ") || "–",
    met: ingests.length === 0 ? null : ingests.every((i) => i.ack.ratio.p99 !== null && i.ack.ratio.p99 <= 2),
    note: r.settings.quick ? "--quick" : null,
  });
  // Local ingestion throughput is reported (speed tables), not held to a goal: the ≥ 500 messages/s
  // goal was retired (docs/BENCHMARKS.md, goals) because what bounds production is the model.
  const decay = largest?.compress.decayMs?.p50 ?? null;
  goals.push({
    id: "decay-10k",
    goal: "decay step at 10k nodes ≤ 50 ms",
    measured: largest ? `median ${fmt(decay, 0)} ms, max ${fmt(largest.compress.decayMsMax, 0)} ms` : "–",
    met: decay === null ? null : decay <= 50,
    note: largest ? note(largest.nodes) : "not measured",
  });
  goals.push({
    id: "no-cross-agent-leakage",
    goal: "no cross-agent leakage",
    measured: r.isolation
      ? `${r.isolation.leaks.length} leaks in ${r.isolation.recallsChecked} recalls, ${r.isolation.searchesChecked} searches`
      : "–",
    met: r.isolation ? r.isolation.leaks.length === 0 : null,
    note: r.isolation ? `${r.isolation.agents} agents` : "not measured",
  });
  const load = r.load;
  const a = load?.accounting;
  goals.push({
    id: "load-nothing-lost",
    goal: "under load, every accepted message found exactly once",
    measured:
      load && a ? `${a.found} of ${load.totalMessages} found; ${a.lost} lost, ${a.duplicated} duplicated, ${a.foreign} foreign` : "–",
    met: load && a ? a.found === load.totalMessages && a.lost + a.duplicated + a.foreign + a.agentsWithWrongStats === 0 : null,
    note: load ? `${load.agents} agents × ${load.messagesPerAgent} messages${r.settings.quick ? "; --quick" : ""}` : "not measured",
  });
  goals.push(...productionGoals(r.production));
  goals.push(...coldGoals(r.cold, r.settings.quick));
  return goals;
}
