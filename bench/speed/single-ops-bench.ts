/**
 * One remember and one recall on a small local agent, end to end as a client sees them: a remember
 * of 20 messages timed from the POST to its task being done (segmented, extracted, linked, indexed;
 * the compression cycle it triggers runs after and is not included), then a recall of two of its
 * keywords at depth 2. Each sample is a fresh 20-message slice of the English stream on the same
 * agent, waiting for the queue to go idle between samples; both are interleaved with floor pings.
 */
import type { AgentApi } from "../driver/agent-api";
import { sampleWithFloor, warmUp, type LatencySummary } from "./floor";
import { chatStream, keywordQueries } from "./streams";

export const SINGLE_OP_MESSAGES = 20;

export interface SingleOpsResult {
  messages: number;
  samples: number;
  remember: LatencySummary;
  recall: LatencySummary;
}

export async function singleOpsBench(agent: AgentApi, samples: number, step: (t: string) => void): Promise<SingleOpsResult> {
  const stream = chatStream("en", samples * SINGLE_OP_MESSAGES, 303, agent.agentId);
  const queries = keywordQueries("en", samples, 13);
  await warmUp(agent, 10);
  const remember = await sampleWithFloor(
    agent,
    samples,
    async (i) => {
      await agent.idleStats();
      const started = performance.now();
      const ack = await agent.remember(stream.slice(i * SINGLE_OP_MESSAGES, (i + 1) * SINGLE_OP_MESSAGES));
      const task = await agent.finishedTask(ack.value);
      if (task.status !== "done") throw new Error(`${agent.agentId}: remember task ${ack.value} ${task.status}`);
      return performance.now() - started;
    },
    (d, t) => step(`${agent.agentId}: remember of ${SINGLE_OP_MESSAGES} messages ${d}/${t}`),
  );
  await agent.idleStats();
  const recall = await sampleWithFloor(
    agent,
    samples,
    async (i) => (await agent.recall({ keywords: queries[i] ?? [], depth: 2, limit: 20 })).ms,
    (d, t) => step(`${agent.agentId}: recall ${d}/${t}`),
  );
  return { messages: SINGLE_OP_MESSAGES, samples, remember: remember.summary, recall: recall.summary };
}
