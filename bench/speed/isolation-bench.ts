/**
 * Many agents written concurrently: the total throughput, and a check that no agent ever sees
 * another's memories (docs/design.md §7).
 *
 * Each agent gets its own marker word (a made-up word no other agent's messages contain) in some of
 * its messages, and message ids prefixed with its own id. All agents are written at once (their
 * queues all work at the same time); once every queue is idle, for each agent: recall of its own marker must return its own memories, and recall
 * (and search, when the endpoint exists) of the next agent's marker must return nothing of the other
 * agent: no item with another agent's message id or marker. Recall may still return the agent's own
 * memories for a foreign marker (vector entry points find neighbours of anything): that is not a leak.
 */
import { AgentApi, type Message } from "../driver/agent-api";
import type { HttpClient } from "../driver/http";
import { memoriesOf } from "../driver/schemas";
import { chatStream } from "./streams";

export interface IsolationResult {
  agents: number;
  messagesPerAgent: number;
  totalMessages: number;
  wallMs: number;
  /** Messages per second over all agents, first call to the last idle queue. */
  throughput: number;
  recallsChecked: number;
  searchesChecked: number;
  /** Agents whose own marker recalled none of their memories (a recall failure, not a leak). */
  ownMarkerMisses: number;
  /** Every leak found: empty when isolation holds. */
  leaks: string[];
}

/**
 * Requests in flight at once. A remember is acknowledged at enqueue, so a few connections keep every
 * agent's queue busy at the same time. With all ~100 at once, a dozen failed after ~6 s with
 * wrangler dev's 503 "Your worker restarted mid-request" (its proxy lost the connection to the local
 * runtime, which had not restarted): the local tooling's limit, not a figure of the API.
 */
const IN_FLIGHT = 16;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
/** "kelvaraao", "kelvarabo", ...: lower-case letters only, ending in a vowel no stemmer touches. */
export const marker = (i: number): string => `kelvar${LETTERS[Math.floor(i / 26) % 26]}${LETTERS[i % 26]}o`;

export function agentMessages(agentId: string, index: number, count: number): Message[] {
  return chatStream("en", count, 5000 + index, agentId).map((m, n) => ({
    ...m,
    id: `${agentId}:${n}`,
    content: n % 4 === 0 ? `${m.content} The code word for this is ${marker(index)}.` : m.content,
  }));
}

/** Runs `f` over `xs` with at most `width` in flight. */
async function pool<T>(xs: readonly T[], width: number, f: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < xs.length) {
      const x = xs[next];
      next += 1;
      if (x !== undefined) await f(x);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, xs.length) }, worker));
}

function foreign(agent: AgentApi, index: number, items: readonly { content: string; ids: readonly string[] }[], agents: number): string[] {
  const out: string[] = [];
  for (const item of items) {
    const badId = item.ids.find((id) => !id.startsWith(`${agent.agentId}:`));
    if (badId) out.push(`${agent.agentId} returned message ${badId} of another agent`);
    for (let j = 0; j < agents; j += 1) {
      if (j !== index && item.content.includes(marker(j))) out.push(`${agent.agentId} returned a memory with ${marker(j)} (agent ${j})`);
    }
  }
  return out;
}

export async function isolationBench(
  http: HttpClient,
  agents: number,
  perAgent: number,
  batch: number,
  step: (t: string) => void,
): Promise<IsolationResult> {
  const apis = Array.from({ length: agents }, (_x, i) => new AgentApi(http, `iso-${String(i).padStart(3, "0")}`));
  step(`${agents} agents: writing concurrently`);
  // Round k of every agent before round k + 1 of any, so that all queues work at the same time.
  const calls = apis.flatMap((agent, i) => {
    const messages = agentMessages(agent.agentId, i, perAgent);
    return Array.from({ length: Math.ceil(messages.length / batch) }, (_x, k) => ({
      agent,
      k,
      batch: messages.slice(k * batch, (k + 1) * batch),
    }));
  });
  calls.sort((a, b) => a.k - b.k);
  const started = performance.now();
  await pool(calls, IN_FLIGHT, async (c) => {
    await c.agent.remember(c.batch);
  });
  await pool(apis, IN_FLIGHT, async (agent) => {
    await agent.idleStats();
  });
  const wallMs = performance.now() - started;

  const result: IsolationResult = {
    agents,
    messagesPerAgent: perAgent,
    totalMessages: agents * perAgent,
    wallMs,
    throughput: (agents * perAgent) / (wallMs / 1000),
    recallsChecked: 0,
    searchesChecked: 0,
    ownMarkerMisses: 0,
    leaks: [],
  };
  let checked = 0;
  await pool([...apis.keys()], IN_FLIGHT / 2, async (i) => {
    const agent = apis[i];
    if (!agent) return;
    const other = marker((i + 1) % agents);
    const own = memoriesOf((await agent.recall({ keywords: [marker(i)], limit: 20 })).value);
    const theirs = memoriesOf((await agent.recall({ keywords: [other], limit: 20 })).value);
    result.recallsChecked += 2;
    if (!own.some((m) => m.content.includes(marker(i)))) result.ownMarkerMisses += 1;
    const asItems = (ms: typeof own) => ms.map((m) => ({ content: m.content, ids: m.source_message_ids }));
    result.leaks.push(...foreign(agent, i, [...asItems(own), ...asItems(theirs)], agents));
    const search = await agent.search({ query: other, mode: "hybrid", top_k: 20 });
    if (search) {
      result.searchesChecked += 1;
      const items = search.value.items.map((it) => ({ content: it.content, ids: it.source_message_ids ?? [] }));
      result.leaks.push(...foreign(agent, i, items, agents));
    }
    checked += 1;
    step(`${agents} agents: isolation checked on ${checked}/${agents}`);
  });
  return result;
}
