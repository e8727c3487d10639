/**
 * Load: many agents written at once (100 × 1,000 messages in the full run), then every message
 * accounted for (docs/design.md §15: nothing accepted is lost or applied twice).
 *
 * Each agent first gets `decay_rate: 1` (one PUT config, before the clock starts): links never
 * weaken, so no memory can be forgotten and every accepted message must still be there at the end
 * (compression cycles still run after every remember and scan every node; a segment may be
 * shortened, never deleted: its importance stays ≥ 0.5 and every message is ≥ 10 characters).
 * Every message has an id (`<agent>:<n>`) and a code word of its own appended to its text.
 *
 * The remembers (calls of `batch` messages, each with an Idempotency-Key) go out round-robin over
 * the agents, round k of every agent before round k + 1 of any, `inFlight` requests at a time, so
 * every agent's queue works at once. Then each agent's queue is waited for, in turn.
 *
 * Accounting, per agent: keyword searches for its code words, 50 at a time (top_k 100): each code
 * word must be found in exactly one memory, and that memory must carry its message id; no memory
 * may carry another agent's message id. The agent's stats must count one remember per call, no
 * failed task and nothing deleted.
 *
 * Figures: messages ÷ time from the first remember sent to the last queue idle; each agent's drain
 * time, from its first remember sent to its last remember task finished (the task's server-side
 * `finished_at`; the compression cycle that follows it, tens of ms, is not included), and its lag,
 * from its last remember acknowledged to that task finished (round-robin spreads an agent's calls
 * over the whole run, so the drain time is close to the sending time; the lag says how far its
 * queue was behind); lost, duplicated and foreign message ids (must all be 0). A remember answered with wrangler's
 * "restarted mid-request" 503 is sent again with the same key (safe: the API applies a key once)
 * and counted.
 */
import { AgentApi, type Message } from "../driver/agent-api";
import { ApiError, type HttpClient } from "../driver/http";
import { counter, type Stats } from "../driver/schemas";
import { percentiles, type Percentiles } from "../lib/aggregate";
import { chatStream } from "./streams";

export interface LoadResult {
  agents: number;
  messagesPerAgent: number;
  batch: number;
  inFlight: number;
  totalMessages: number;
  calls: number;
  /** First remember sent → last one acknowledged, ms. */
  sendMs: number;
  /** First remember sent → every queue idle, ms. */
  wallMs: number;
  /** totalMessages ÷ wallMs, per second. */
  throughput: number;
  /** Per agent: first remember sent → its last remember task finished, ms. */
  drainMs: Percentiles | null;
  slowest: { agent: string; drainMs: number } | null;
  /** Per agent: its last remember acknowledged → that task finished, ms (how far its queue lagged). */
  lagMs: Percentiles | null;
  lagMaxMs: number | null;
  nodes: number;
  links: number;
  /** Remembers sent again after a 503 from wrangler's proxy (same Idempotency-Key). */
  resent: number;
  accounting: {
    searches: number;
    /** Message ids found exactly once, in a memory that carries the id. */
    found: number;
    /** Accepted but not found. */
    lost: number;
    /** Found in more than one memory. */
    duplicated: number;
    /** Ids of another agent in an agent's answers. */
    foreign: number;
    /** Agents whose stats count a remember number other than the calls accepted, a failed task, or a deleted node. */
    agentsWithWrongStats: number;
    readMs: number;
  };
  /** The first problems found, described (empty when everything is accounted for). */
  problems: string[];
}

/** Requests in flight (the concurrent-agents bench's width: wrangler dev's proxy copes with it). */
const IN_FLIGHT = 16;
/** Code words per accounting search (top_k 100 leaves room for duplicates to show). */
const CODES_PER_SEARCH = 50;
/** Re-sends of one remember after a proxy 503. */
const MAX_RESENDS = 3;
const RESTARTED = /restarted mid-request/;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** "zq" + four letters + "o": a keyword no stream word or stemmer produces, unique per message. */
export function loadCode(n: number): string {
  let s = "";
  for (let i = 0, x = n; i < 4; i++, x = Math.floor(x / 26)) s = (LETTERS[x % 26] ?? "a") + s;
  return `zq${s}o`;
}

const codesIn = (text: string): string[] => text.match(/\bzq[a-z]{4}o\b/g) ?? [];

export function loadMessages(agentId: string, index: number, count: number): Message[] {
  return chatStream("en", count, 7000 + index, agentId).map((m, n) => ({
    ...m,
    id: `${agentId}:${n}`,
    content: `${m.content} (ref ${loadCode(index * count + n)})`,
  }));
}

async function pool<T>(xs: readonly T[], width: number, f: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < xs.length) {
      const x = xs[next++];
      if (x !== undefined) await f(x);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, xs.length) }, worker));
}

interface Sent {
  agent: AgentApi;
  index: number;
  messages: Message[];
  firstSentAt: number | null;
  lastAckAt: number | null;
  lastTask: string | null;
  calls: number;
  /** The agent's previous call: its calls go out one after the other, in order. */
  previous: Promise<void>;
}

export async function loadBench(
  http: HttpClient,
  agents: number,
  perAgent: number,
  batch: number,
  step: (t: string) => void,
): Promise<LoadResult> {
  const sent: Sent[] = Array.from({ length: agents }, (_x, i) => {
    const agent = new AgentApi(http, `load-${String(i).padStart(3, "0")}`);
    const messages = loadMessages(agent.agentId, i, perAgent);
    return { agent, index: i, messages, firstSentAt: null, lastAckAt: null, lastTask: null, calls: 0, previous: Promise.resolve() };
  });
  step(`load: ${agents} agents, decay_rate 1`);
  await pool(sent, IN_FLIGHT, async (s) => {
    await s.agent.configure({ decay_rate: 1 });
  });
  const calls = sent.flatMap((s) =>
    Array.from({ length: Math.ceil(perAgent / batch) }, (_x, k) => ({ s, k, batch: s.messages.slice(k * batch, (k + 1) * batch) })),
  );
  calls.sort((a, b) => a.k - b.k || a.s.index - b.s.index);
  let resent = 0;
  let acked = 0;
  const started = performance.now();
  const send = async (c: (typeof calls)[number]): Promise<void> => {
    c.s.firstSentAt ??= Date.now();
    for (let sends = 1; ; sends++) {
      try {
        const ack = await c.s.agent.remember(c.batch, `${c.s.agent.agentId}.${c.k}`);
        c.s.lastTask = ack.value;
        c.s.lastAckAt = Date.now();
        c.s.calls += 1;
        return;
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 503 && RESTARTED.test(e.body)) || sends > MAX_RESENDS) throw e;
        resent += 1;
      }
    }
  };
  await pool(calls, IN_FLIGHT, async (c) => {
    // With fewer agents than requests in flight, an agent's next call waits for its previous one.
    const mine = c.s.previous.then(() => send(c));
    c.s.previous = mine;
    await mine;
    acked += 1;
    if (acked % 100 === 0) step(`load: ${acked}/${calls.length} remembers acknowledged`);
  });
  const sendMs = performance.now() - started;
  let idle = 0;
  const stats: Stats[] = [];
  for (const s of sent) {
    stats.push(await s.agent.idleStats());
    idle += 1;
    step(`load: ${idle}/${agents} queues idle`);
  }
  const wallMs = performance.now() - started;

  const drains: { agent: string; ms: number }[] = [];
  const lags: number[] = [];
  for (const s of sent) {
    const task = s.lastTask === null ? null : await s.agent.task(s.lastTask);
    if (task?.finished_at == null || s.firstSentAt === null || s.lastAckAt === null) continue;
    drains.push({ agent: s.agent.agentId, ms: task.finished_at - s.firstSentAt });
    lags.push(Math.max(0, task.finished_at - s.lastAckAt));
  }

  const problems: string[] = [];
  const acc = { searches: 0, found: 0, lost: 0, duplicated: 0, foreign: 0, agentsWithWrongStats: 0, readMs: 0 };
  const readStarted = performance.now();
  let checked = 0;
  await pool(sent, IN_FLIGHT / 2, async (s) => {
    const st = stats[s.index];
    const expected = Math.ceil(perAgent / batch);
    if (
      !st ||
      counter(st, "remembers") !== expected ||
      st.queue.failed > 0 ||
      counter(st, "nodes_deleted") + counter(st, "nodes_evicted") > 0
    ) {
      acc.agentsWithWrongStats += 1;
      problems.push(
        `${s.agent.agentId}: stats ${JSON.stringify(st?.counters)} queue ${JSON.stringify(st?.queue)}, ${expected} remembers sent`,
      );
    }
    const prefix = `${s.agent.agentId}:`;
    for (let at = 0; at < s.messages.length; at += CODES_PER_SEARCH) {
      const group = s.messages.slice(at, at + CODES_PER_SEARCH);
      const codes = new Map(group.map((m) => [codesIn(m.content)[0] ?? "", m.id ?? ""]));
      const answer = await s.agent.search({ query: [...codes.keys()].join(" "), mode: "keyword", top_k: 100 });
      if (answer === null) throw new Error("load accounting needs the search endpoint (404)");
      acc.searches += 1;
      const holders = new Map<string, number>();
      for (const item of answer.value.items) {
        const ids = item.source_message_ids ?? [];
        const bad = ids.filter((id) => !id.startsWith(prefix));
        acc.foreign += bad.length;
        if (bad.length > 0) problems.push(`${s.agent.agentId}: a memory carries ${bad.join(", ")}`);
        for (const code of codesIn(item.content)) {
          const id = codes.get(code);
          if (id === undefined) continue;
          if (!ids.includes(id)) problems.push(`${s.agent.agentId}: the memory with ${code} does not carry ${id}`);
          else holders.set(code, (holders.get(code) ?? 0) + 1);
        }
      }
      for (const [code, id] of codes) {
        const n = holders.get(code) ?? 0;
        if (n === 1) acc.found += 1;
        else if (n === 0) {
          acc.lost += 1;
          problems.push(`${s.agent.agentId}: message ${id} (${code}) not found`);
        } else {
          acc.duplicated += 1;
          problems.push(`${s.agent.agentId}: message ${id} (${code}) found in ${n} memories`);
        }
      }
    }
    checked += 1;
    step(`load: messages accounted for on ${checked}/${agents} agents`);
  });
  acc.readMs = performance.now() - readStarted;
  const slowest = drains.reduce<{ agent: string; ms: number } | null>((a, d) => (a === null || d.ms > a.ms ? d : a), null);
  if (drains.length !== agents) problems.push(`drain time known for ${drains.length} of ${agents} agents`);
  return {
    agents,
    messagesPerAgent: perAgent,
    batch,
    inFlight: IN_FLIGHT,
    totalMessages: agents * perAgent,
    calls: calls.length,
    sendMs,
    wallMs,
    throughput: (agents * perAgent) / (wallMs / 1000),
    drainMs: percentiles(drains.map((d) => d.ms)),
    slowest: slowest ? { agent: slowest.agent, drainMs: slowest.ms } : null,
    lagMs: percentiles(lags),
    lagMaxMs: lags.length > 0 ? Math.max(...lags) : null,
    nodes: stats.reduce((a, s) => a + s.nodes.total, 0),
    links: stats.reduce((a, s) => a + s.links.total, 0),
    resent,
    accounting: acc,
    problems: problems.slice(0, 50),
  };
}
