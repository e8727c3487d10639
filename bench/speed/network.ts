/**
 * Agents of a given size for the latency and compression benchmarks: an agent is fed the English
 * synthetic stream in large remember calls (docs/design.md §2 parameters, so one compression cycle follows
 * each call, as in real use) until it holds at least `target` nodes. The node count actually
 * reached is reported; at the default capacity (10,000) a 10k agent ends full, evicting as it goes.
 * Each call goes into one of NETWORK_SESSIONS sessions in turn (an attribute: the network is the
 * same), so the filtered reads (filtered-bench.ts) have a session holding about a tenth of it.
 */
import type { AgentApi } from "../driver/agent-api";
import type { Stats } from "../driver/schemas";
import { chatStream } from "./streams";

export interface Network {
  target: number;
  messages: number;
  calls: number;
  buildMs: number;
  stats: Stats;
}

/** Messages per call: large calls build quickly; the API takes at most 500. */
const MAX_CHUNK = 400;
const MIN_CHUNK = 20;
export const NETWORK_SESSIONS = 10;

export async function buildNetwork(agent: AgentApi, target: number, step: (text: string) => void): Promise<Network> {
  const started = performance.now();
  let messages = 0;
  let calls = 0;
  let stats = await agent.stats();
  let perMessage = 2.5; // nodes per message, re-estimated after every call
  while (stats.nodes.total < target) {
    const wanted = Math.ceil(((target - stats.nodes.total) / perMessage) * 1.05);
    const chunk = Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, wanted));
    await agent.remember(chatStream("en", chunk, 1000 + calls, `${agent.agentId}-${calls}`), undefined, `part-${calls % NETWORK_SESSIONS}`);
    messages += chunk;
    calls += 1;
    const before = stats.nodes.total;
    stats = await agent.idleStats();
    step(`${agent.agentId}: ${stats.nodes.total}/${target} nodes after ${messages} messages`);
    if (stats.nodes.total <= before) break; // at capacity: it cannot grow further
    perMessage = Math.max(0.5, stats.nodes.total / messages);
  }
  return { target, messages, calls, buildMs: performance.now() - started, stats };
}
