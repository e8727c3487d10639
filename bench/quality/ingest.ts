/**
 * Feeds one agent under a preset: PUT the preset's parameters, then one submission after another
 * (each split into API-sized remember calls), each applied before the next is sent: the queue is
 * idle (remember, indexing and compression cycles done) between submissions. A client could send
 * without waiting, but then whether a cycle runs before or after the next remember depends on
 * timing (the API runs cycles as background work and merges queued ones into one pass), and that
 * changes what decays: two runs gave MADial `default` 139 and 140 nodes. Waiting makes the order
 * the same in every run, so the quality numbers are deterministic.
 * The ingestion time is the client's wall time from the first call to the last idle queue.
 */
import type { Config } from "../driver/schemas";
import type { AgentApi, Message } from "../driver/agent-api";
import type { Stats } from "../driver/schemas";
import { rememberBatches } from "./batches";
import type { Preset } from "./presets";

export interface Ingestion {
  ms: number;
  /** The parameters in force, as the API answered them. */
  config: Config;
  /** Stats once the queue is idle. */
  stats: Stats;
  messages: number;
  rememberCalls: number;
  /** Compression cycles queued by the harness (the `pressure` preset). */
  extraCycles: number;
}

export async function ingest(
  agent: AgentApi,
  preset: Preset,
  submissions: readonly (readonly Message[])[],
  progress: (done: number, total: number) => void,
): Promise<Ingestion> {
  const config = await agent.configure(preset.config);
  const started = performance.now();
  let rememberCalls = 0;
  let extraCycles = 0;
  let messages = 0;
  for (const [i, submission] of submissions.entries()) {
    for (const batch of rememberBatches(submission)) {
      await agent.remember(batch);
      rememberCalls += 1;
    }
    messages += submission.length;
    if (preset.cyclePerTurn && submission.length > 0) {
      await agent.compress(submission.length);
      extraCycles += submission.length;
    }
    await agent.idleStats();
    progress(i + 1, submissions.length);
  }
  const stats = await agent.idleStats();
  return { ms: performance.now() - started, config, stats, messages, rememberCalls, extraCycles };
}
