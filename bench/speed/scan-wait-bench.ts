/**
 * How long a recall waits behind a running compression scan (docs/design.md §6 time slicing: the scan
 * yields between any two nodes when a foreground task is waiting). Each probe queues one cycle,
 * polls its task until it is running, then sends a recall (the latency bench's request: two
 * keywords, depth 2, limit 20) and times it. The recall reached the scan while it ran exactly when
 * the cycle's result counts more than one slice (it yielded to the recall); only those probes count
 * toward the wait. The figure to compare with is the same agent's idle recall latency.
 */
import type { AgentApi } from "../driver/agent-api";
import { percentiles, type Percentiles } from "../lib/aggregate";
import { keywordQueries } from "./streams";

export interface ScanWaitResult {
  probes: number;
  /** Probes whose recall arrived while the scan was running (the cycle yielded to it). */
  behindScan: number;
  /** Latency of those recalls, ms (client side). */
  ms: Percentiles | null;
  maxMs: number | null;
}

export async function scanWaitBench(agent: AgentApi, probes: number, step: (t: string) => void): Promise<ScanWaitResult> {
  const queries = keywordQueries("en", probes, 11);
  const waits: number[] = [];
  for (let i = 0; i < probes; i += 1) {
    step(`${agent.agentId}: recall behind a scan ${i + 1}/${probes}`);
    const [id] = await agent.compress(1);
    if (id === undefined) throw new Error(`${agent.agentId}: POST /compress queued no task`);
    let status = (await agent.task(id)).status;
    for (let polls = 1; status === "queued"; polls += 1) {
      if (polls > 1000) throw new Error(`${agent.agentId}: compression task ${id} still queued after ${polls} polls`);
      status = (await agent.task(id)).status;
    }
    const recall = status === "running" ? await agent.recall({ keywords: queries[i] ?? [], depth: 2, limit: 20 }) : null;
    const { result } = await agent.cycleResult(id);
    if (recall && result && result.slices > 1) waits.push(recall.ms);
    await agent.idleStats();
  }
  return { probes, behindScan: waits.length, ms: percentiles(waits), maxMs: waits.length > 0 ? Math.max(...waits) : null };
}
