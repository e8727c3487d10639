/**
 * The benchmark hooks' answers inside the object (bench-hooks.ts), among them the fault suite's
 * check of the object's copy of the network (test/faults/run.ts): the graph loaded afresh from the snapshot and journal, as a
 * wake loads it, against the graph loaded afresh from D1, node record by node record and link by
 * link at the level the graph holds. Asked when the agent's queue is idle (a commit whose intent
 * is still stored is in D1 before it is in the copy, until it is redone).
 */
import { loadGraph } from "../engine/graph-loader";
import type { MemoryGraph } from "../memory/graph";
import type { AgentState } from "./agent-state";
import type { BenchAction, RequestUsage } from "./usage-meter";

export interface CopyCheck {
  /** Whether the object holds a copy (none: the next wake rebuilds it from D1, nothing to compare). */
  copy: boolean;
  journal: number;
  nodes: number;
  links: number;
  /** What differs, at most a few; empty when the copy is D1. */
  mismatches: string[];
}

/** What a benchmark hook answers: the check below, or the last call's usage. */
export type BenchAnswer<A extends BenchAction> = A extends "copy" ? CopyCheck : RequestUsage;

const SHOWN = 5;

/** The hook `action`'s answer (the request reached the object, its identity bound). */
export async function benchAnswer<A extends BenchAction>(
  state: AgentState,
  ctx: DurableObjectState,
  action: A,
): Promise<BenchAnswer<A> | null> {
  if (action === "copy") return (await checkCopy(state)) as BenchAnswer<A>;
  if (action === "evict") {
    // The platform evicts only an object left idle: the work it does once quiet ends first.
    await state.network.settle();
    ctx.abort("evicted by the benchmark");
  }
  return (state.usage?.readRequests() ?? null) as BenchAnswer<A> | null;
}

async function checkCopy(state: AgentState): Promise<CopyCheck> {
  const repos = state.existingRepos();
  const loaded = state.network.snapshots.load();
  if (!repos || !loaded) return { copy: loaded !== undefined, journal: 0, nodes: 0, links: 0, mismatches: [] };
  const d1 = (await loadGraph(repos, state.focus.ids(), state.network.pastLimits.limits)).graph;
  const mismatches = d1 ? differences(loaded.graph, d1) : ["D1's network is past the cache's limits, yet the object holds a copy"];
  return { copy: true, journal: loaded.replayed, nodes: loaded.graph.nodeCount, links: loaded.graph.linkCount, mismatches };
}

function differences(copy: MemoryGraph, d1: MemoryGraph): string[] {
  const out: string[] = [];
  const ids = new Set([...copy.nodeIds(), ...d1.nodeIds()]);
  for (const id of [...ids].sort((a, b) => a - b)) {
    const [a, b] = [JSON.stringify(copy.node(id) ?? null), JSON.stringify(d1.node(id) ?? null)];
    if (a !== b) out.push(`node ${id}: copy ${a.slice(0, 200)}, D1 ${b.slice(0, 200)}`);
  }
  const key = (l: { source: number; target: number; relation: string }) => `${l.source}|${l.target}|${l.relation}`;
  const linksOf = (g: MemoryGraph) => new Map(g.allLinks().map((l) => [key(l), `${l.level}@${l.createdAt}`]));
  const [copyLinks, d1Links] = [linksOf(copy), linksOf(d1)];
  for (const k of new Set([...copyLinks.keys(), ...d1Links.keys()])) {
    if (copyLinks.get(k) !== d1Links.get(k)) out.push(`link ${k}: copy ${copyLinks.get(k) ?? "none"}, D1 ${d1Links.get(k) ?? "none"}`);
  }
  if (JSON.stringify(copy.aliasEntries().sort()) !== JSON.stringify(d1.aliasEntries().sort())) out.push("aliases differ");
  if (JSON.stringify(copy.focusIds().sort()) !== JSON.stringify(d1.focusIds().sort())) out.push("focus differs");
  return out.length > SHOWN ? [...out.slice(0, SHOWN), `and ${out.length - SHOWN} more`] : out;
}
