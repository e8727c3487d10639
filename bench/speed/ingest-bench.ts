/**
 * remember: the acknowledgement latency (enqueue only) and the ingestion throughput of one agent on a
 * stream of messages (1,000 by default), in English or in Chinese, docs/design.md §2 parameters (one
 * compression cycle after every remember).
 *
 * The stream goes out as remember calls of `batch` messages sent back to back, as a client pushing
 * its overflowing history would, without waiting for the queue: each acknowledgement is measured
 * while the agent is busy applying the earlier calls, which is when "enqueue only" matters. Each
 * call is interleaved with a floor ping.
 *
 * Throughput, in messages/s: `wall` counts from the first call to the idle queue (every remember
 * applied and every compression cycle run): the rate the queue sustains; `remember` divides by the
 * summed run time of the remember tasks alone (server clock, cycles excluded).
 */
import type { AgentApi } from "../driver/agent-api";
import { counter } from "../driver/schemas";
import { sampleWithFloor, warmUp, type LatencySummary } from "./floor";
import { chatStream, type StreamLang } from "./streams";

export interface IngestResult {
  lang: StreamLang;
  messages: number;
  batch: number;
  calls: number;
  ack: LatencySummary;
  wallMs: number;
  /** Summed started→finished time of the remember tasks, ms (server clock). */
  rememberTaskMs: number;
  throughput: { wall: number; remember: number | null };
  nodes: number;
  cycles: number;
}

export async function ingestBench(
  agent: AgentApi,
  lang: StreamLang,
  messages: number,
  batch: number,
  step: (text: string) => void,
): Promise<IngestResult> {
  const stream = chatStream(lang, messages, lang === "en" ? 101 : 202, agent.agentId);
  const batches: (typeof stream)[] = [];
  for (let i = 0; i < stream.length; i += batch) batches.push(stream.slice(i, i + batch));
  await warmUp(agent, 20);
  const taskIds: string[] = [];
  const started = performance.now();
  const { summary } = await sampleWithFloor(
    agent,
    batches.length,
    async (i) => {
      const ack = await agent.remember(batches[i] ?? []);
      taskIds.push(ack.value);
      return ack.ms;
    },
    (d, t) => step(`${lang}: remember ${d}/${t}`),
  );
  step(`${lang}: waiting for the queue to drain`);
  const stats = await agent.idleStats();
  const wallMs = performance.now() - started;
  let rememberTaskMs = 0;
  for (const id of taskIds) {
    const task = await agent.finishedTask(id);
    if (task.status !== "done") throw new Error(`${agent.agentId}: remember task ${id} ${task.status}`);
    if (task.started_at !== null && task.finished_at !== null) rememberTaskMs += task.finished_at - task.started_at;
  }
  return {
    lang,
    messages,
    batch,
    calls: batches.length,
    ack: summary,
    wallMs,
    rememberTaskMs,
    throughput: { wall: messages / (wallMs / 1000), remember: rememberTaskMs > 0 ? messages / (rememberTaskMs / 1000) : null },
    nodes: stats.nodes.total,
    cycles: counter(stats, "cycles"),
  };
}
