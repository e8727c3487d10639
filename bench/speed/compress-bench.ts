/**
 * Compression cycles on an agent of a given size (docs/design.md §6): `cycles` single cycles, one after the
 * other (POST /compress with cycles 1, then wait for it: cycles queued together may run as one pass,
 * which would measure k decay steps as one). The decay step's time (`decay_ms`) is measured by the
 * API around its statement (server clock); the cycle's run time is its task's started→finished.
 * Scan rate = nodes scanned ÷ the cycles' run time: the API's own `scan_ms` is summed per node from
 * a clock that workerd only advances at I/O, so it misses the CPU time between queries and would
 * overstate the rate.
 */
import type { AgentApi } from "../driver/agent-api";
import type { CycleResult } from "../driver/schemas";
import { percentiles, type Percentiles } from "../lib/aggregate";

export interface CompressResult {
  nodes: number;
  cycles: number;
  decayMs: Percentiles | null;
  decayMsMax: number | null;
  cycleMs: Percentiles | null;
  scanned: number;
  scanMs: number;
  /** Nodes scanned per second of cycle run time. */
  scanRate: number | null;
  compressed: number;
  deleted: number;
  linksBroken: number;
  raw: CycleResult[];
}

export async function compressBench(agent: AgentApi, nodes: number, cycles: number, step: (t: string) => void): Promise<CompressResult> {
  const results: CycleResult[] = [];
  const cycleMs: number[] = [];
  for (let i = 0; i < cycles; i += 1) {
    step(`${agent.agentId}: compression cycle ${i + 1}/${cycles}`);
    const [id] = await agent.compress(1);
    if (id === undefined) throw new Error(`${agent.agentId}: POST /compress queued no task`);
    const { result, task } = await agent.cycleResult(id);
    // Alone in an idle queue, a cycle is never merged into another's pass.
    if (result === null) throw new Error(`${agent.agentId}: compression task ${id} was merged into another pass`);
    results.push(result);
    if (task.started_at !== null && task.finished_at !== null) cycleMs.push(task.finished_at - task.started_at);
    await agent.idleStats();
  }
  const sum = (f: (r: CycleResult) => number): number => results.reduce((a, r) => a + f(r), 0);
  const scanned = sum((r) => r.scanned);
  const totalCycleMs = cycleMs.reduce((a, x) => a + x, 0);
  return {
    nodes,
    cycles: results.length,
    decayMs: percentiles(results.map((r) => r.decay_ms)),
    decayMsMax: results.length ? Math.max(...results.map((r) => r.decay_ms)) : null,
    cycleMs: percentiles(cycleMs),
    scanned,
    scanMs: sum((r) => r.scan_ms),
    scanRate: totalCycleMs > 0 ? scanned / (totalCycleMs / 1000) : null,
    compressed: sum((r) => r.compressed),
    deleted: sum((r) => r.deleted),
    linksBroken: sum((r) => r.links_broken),
    raw: results,
  };
}
