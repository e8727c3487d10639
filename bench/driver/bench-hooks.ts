/**
 * The benchmark's hooks into an agent's object (src/agent/bench-hooks.ts; served only by a local
 * server started with BENCH_HOOKS = "1"): evict the object as the platform would, and read what
 * its usage meter counted for the last call (D1 round trips and rows, with BENCH_USAGE_COUNTERS).
 */
import { z } from "zod";
import { DEV_API_KEY } from "./http";

const CountsSchema = z.record(z.string(), z.number());
const RequestUsageSchema = z.object({
  instance: z.string(),
  sinceRead: CountsSchema,
  lastRequest: z.object({ name: z.string(), counts: CountsSchema }).nullable(),
});
export type RequestUsage = z.infer<typeof RequestUsageSchema>;

/** The D1 figures of one call, from its counts (src/agent/usage-meter.ts, d1Counters). */
export interface CallD1 {
  /** Round trips that started while no other was in flight: what the call waited for in sequence. */
  sequentialStatements: number;
  /** Every round trip (a statement run alone or a batch). */
  statements: number;
  rowsRead: number;
  rowsWritten: number;
}

export function callD1(counts: Readonly<Record<string, number>>): CallD1 {
  return {
    sequentialStatements: counts.d1_sequential_round_trips ?? 0,
    statements: counts.d1_round_trips ?? 0,
    rowsRead: counts.d1_rows_read ?? 0,
    rowsWritten: counts.d1_rows_written ?? 0,
  };
}

export class BenchHooks {
  constructor(private readonly url: string) {}

  private async post(agentId: string, action: "evict" | "usage"): Promise<Response> {
    const res = await fetch(`${this.url}/__bench/agents/${encodeURIComponent(agentId)}/${action}`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEV_API_KEY}` },
    });
    if (res.status === 404) throw new Error("the server does not serve the benchmark hooks (BENCH_HOOKS unset?)");
    return res;
  }

  /** Resets the agent's object: the next call constructs it afresh over its storage. */
  async evict(agentId: string): Promise<void> {
    const res = await this.post(agentId, "evict");
    if (res.status !== 204) throw new Error(`evicting ${agentId}: HTTP ${res.status} ${await res.text()}`);
  }

  /**
   * What the object counted since the last ask: the last call's counts when it finished (constructor
   * included after an eviction), and everything since; then it starts afresh.
   */
  async usage(agentId: string): Promise<RequestUsage> {
    const res = await this.post(agentId, "usage");
    const body: unknown = await res.json();
    if (body === null) throw new Error("the object keeps no usage meter (BENCH_USAGE_COUNTERS unset?)");
    return RequestUsageSchema.parse(body);
  }
}
