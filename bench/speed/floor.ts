/**
 * Latency against a floor measured in the same run. These machines are shared and noisy, so a
 * latency alone says little; its ratio to the floor says how much the operation costs beyond the
 * unavoidable: the floor is `GET /ping`, a request that reaches the same agent's Durable Object and
 * runs one trivial D1 query (`SELECT 1`). Floor samples are interleaved with the measured ones, one
 * each, alternating which goes first, so that noise (other processes, GC, the agent's own
 * background work) falls on both alike. Percentiles are nearest-rank (lib/aggregate.ts).
 */
import type { AgentApi } from "../driver/agent-api";
import { percentiles, type Percentiles } from "../lib/aggregate";

export interface RatioPercentiles {
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface LatencySummary {
  /** The operation's client-side latency, ms. */
  ms: Percentiles | null;
  /** The interleaved floor's, ms. */
  floorMs: Percentiles | null;
  /** ms ÷ floorMs at each percentile. */
  ratio: RatioPercentiles;
}

const div = (a: number | undefined, b: number | undefined): number | null => (a === undefined || b === undefined || b === 0 ? null : a / b);

export function summarize(samples: readonly number[], floor: readonly number[]): LatencySummary {
  const ms = percentiles(samples);
  const floorMs = percentiles(floor);
  return {
    ms,
    floorMs,
    ratio: { p50: div(ms?.p50, floorMs?.p50), p95: div(ms?.p95, floorMs?.p95), p99: div(ms?.p99, floorMs?.p99) },
  };
}

/** Pings the agent `n` times: wakes its Durable Object and warms the connection before sampling. */
export async function warmUp(agent: AgentApi, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) out.push((await agent.ping()).ms);
  return out;
}

/**
 * Runs `op(i)` for i < n, each next to one floor sample; `op` returns its own latency in ms.
 * Returns both series (and the summary), in order.
 */
export async function sampleWithFloor(
  agent: AgentApi,
  n: number,
  op: (i: number) => Promise<number>,
  progress: (done: number, total: number) => void = () => undefined,
): Promise<{ samples: number[]; floor: number[]; summary: LatencySummary }> {
  const samples: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < n; i += 1) {
    if (i % 2 === 0) {
      floor.push((await agent.ping()).ms);
      samples.push(await op(i));
    } else {
      samples.push(await op(i));
      floor.push((await agent.ping()).ms);
    }
    progress(i + 1, n);
  }
  return { samples, floor, summary: summarize(samples, floor) };
}
