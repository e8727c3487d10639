/**
 * Filtered reads (issue 36; docs/design.md, "Filters choose what a read returns"): recall, search
 * (each mode) and the context block with a filter that keeps about a tenth of the agent, measured
 * on the same agent right after the same calls without a filter, with the same queries. The filter
 * is one session: the network is built into NETWORK_SESSIONS sessions in turn (network.ts), and
 * the session whose share of the memories is nearest FILTER_SHARE is taken; its share is reported.
 */
import type { AgentApi, ReadFilter } from "../driver/agent-api";
import { fmt } from "../lib/table";
import type { Goal } from "../driver/goal";
import type { LatencySummary } from "./floor";
import {
  contextOnlyLatency,
  recallLatency,
  searchLatency,
  type ContextOnlyLatency,
  type RecallLatency,
  type SearchLatency,
} from "./latency-bench";

export const FILTER_SHARE = 0.1;
/** The goal: a filtered read's p95 at most this many times the unfiltered one's. */
export const FILTERED_P95_BOUND = 1.5;

export interface FilteredLatency {
  filter: ReadFilter;
  /** Memories the filter keeps, and the agent's memories (segments, explicit memories, episodes). */
  kept: number;
  memories: number;
  recall: RecallLatency;
  search: SearchLatency;
  context: ContextOnlyLatency;
}

export async function filteredLatency(
  agent: AgentApi,
  samples: { recall: number; search: number },
  focus: number,
  step: (t: string) => void,
): Promise<FilteredLatency | null> {
  const sessions = await agent.sessions();
  const memories = sessions.reduce((a, s) => a + s.memories, 0);
  if (memories === 0) return null;
  const nearest = sessions.reduce((a, s) =>
    Math.abs(s.memories / memories - FILTER_SHARE) < Math.abs(a.memories / memories - FILTER_SHARE) ? s : a,
  );
  const filter: ReadFilter = { session_ids: [nearest.session_id] };
  return {
    filter,
    kept: nearest.memories,
    memories,
    recall: await recallLatency(agent, samples.recall, focus, step, filter),
    search: await searchLatency(agent, samples.search, step, filter),
    context: await contextOnlyLatency(agent, samples.search, step, filter),
  };
}

/** Each read's unfiltered and filtered latency: [read, unfiltered, filtered, mean items filtered]. */
export function filteredPairs(
  n: { recall: RecallLatency; search: SearchLatency; context: ContextOnlyLatency },
  f: FilteredLatency,
): [string, LatencySummary, LatencySummary, number][] {
  const pairs: [string, LatencySummary, LatencySummary, number][] = [
    ["recall", n.recall.latency, f.recall.latency, f.recall.meanItems],
    ["context", n.context.latency, f.context.latency, f.context.meanMemories],
  ];
  if (n.search.skipped === null && f.search.skipped === null) {
    for (const [mode, s] of Object.entries(f.search.modes)) {
      const unfiltered = n.search.modes[mode];
      if (unfiltered) pairs.push([`search (${mode})`, unfiltered, s, s.meanItems]);
    }
  }
  return pairs;
}

const p95Ratio = (unfiltered: LatencySummary, filtered: LatencySummary): number | null =>
  unfiltered.ms && filtered.ms && unfiltered.ms.p95 > 0 ? filtered.ms.p95 / unfiltered.ms.p95 : null;

export function filteredRows(networks: readonly FilteredNetwork[]): string[][] {
  return networks.flatMap((n) =>
    n.filtered === null
      ? []
      : filteredPairs(n, n.filtered).map(([read, u, f, items]) => [
          String(n.nodes),
          `${n.filtered!.filter.session_ids?.join(",")} (${fmt((100 * n.filtered!.kept) / n.filtered!.memories, 1)} %)`,
          read,
          fmt(items, 1),
          fmt(u.ms?.p50, 0),
          fmt(u.ms?.p95, 0),
          fmt(f.ms?.p50, 0),
          fmt(f.ms?.p95, 0),
          fmt(p95Ratio(u, f), 2),
        ]),
  );
}

export interface FilteredNetwork {
  nodes: number;
  recall: RecallLatency;
  search: SearchLatency;
  context: ContextOnlyLatency;
  filtered: FilteredLatency | null;
}

export function filteredGoal(largest: FilteredNetwork | null, note: string | null): Goal {
  const pairs = largest?.filtered ? filteredPairs(largest, largest.filtered) : [];
  const ratios = pairs.map(([read, u, f]) => [read, p95Ratio(u, f)] as const);
  return {
    id: "filtered-p95-10k",
    goal: `search, recall and context with a filter keeping 10 % of a 10k agent: p95 ≤ ${FILTERED_P95_BOUND} × unfiltered (same run)`,
    measured: ratios.length > 0 ? ratios.map(([read, r]) => `${read} ×${fmt(r, 2)}`).join(", ") : "–",
    met: ratios.length === 0 || ratios.some(([, r]) => r === null) ? null : ratios.every(([, r]) => r! <= FILTERED_P95_BOUND),
    note: largest?.filtered ? note : "not measured",
  };
}
