/**
 * The cold path (docs/design.md, "The cold path and the storage layout"): the first call after the
 * agent's object was evicted, beside the same call right after it, as users meet it after a
 * silence. Agents of ~1k and ~10k nodes and the largest the object caches (GRAPH_MAX_NODES /
 * GRAPH_MAX_LINKS, src/engine/graph-loader.ts: whichever binds first), then the same agent grown
 * past it. Each round evicts the object through the benchmark's hook (src/agent/bench-hooks.ts:
 * the object's memory goes, its storage stays) and times one call cold, then the same kind of call
 * warm: ping (the floor: wake, one SELECT 1), recall (two keywords, depth 2), search (hybrid),
 * context (free-text query) and the remember acknowledgement (the 202; the task runs after it).
 *
 * The D1 binding is wrapped (src/storage/metered-d1.ts; only the benchmark's server has the vars):
 * every round trip (a statement alone or a batch) is delayed by the simulated network of the phase
 * (BENCH_D1_RTT_MS: 0, 50, 150 ms), and each call's round trips and rows are counted; a round trip
 * that started while no other was in flight is *sequential*, what the caller waited for one after
 * the other. Counting reads every D1 result through all() (to see its meta), a cost the cold times
 * include.
 *
 * Each round-trip setting is its own server over the same storage (a restart: a fresh isolate).
 * Its first call is reported apart (freshIsolate: the local model's start-up and the object's
 * wake), before any eviction.
 */
import { quotaDefaults } from "../../src/config/quotas";
import { GRAPH_MAX_LINKS, GRAPH_MAX_NODES } from "../../src/engine/graph-loader";
import { AgentApi, type ContextRequest } from "../driver/agent-api";
import { BenchHooks, callD1, type CallD1 } from "../driver/bench-hooks";
import { HttpClient } from "../driver/http";
import type { Stats } from "../driver/schemas";
import { removeKeptServerDirs, startBenchServer, type BenchServer } from "../driver/server";
import { percentiles } from "../lib/aggregate";
import { buildNetwork } from "./network";
import {
  COLD_CALLS,
  COLD_QUICK,
  type ColdAgent,
  type ColdCall,
  type ColdResult,
  type ColdRun,
  type ColdSettings,
  type ColdSize,
  type FreshIsolate,
} from "./cold-result";
import { chatStream, keywordQueries, searchQueries } from "./streams";
import path from "node:path";
import { ROOT } from "../../scripts/local-server.mjs";

const VARS = { BENCH_HOOKS: "1", BENCH_USAGE_COUNTERS: "1" };
/** Larger than any cold call: a slow first call must not be re-sent by the stall guard (http.ts). */
const NO_HEDGE_MS = 10 * 60_000;
const CONTEXT_BUDGET = 1024;

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? null;
};

const cacheShare = (s: Stats): number => Math.max(s.nodes.total / GRAPH_MAX_NODES, s.links.total / GRAPH_MAX_LINKS);
const isCached = (s: Stats): boolean => s.nodes.total <= GRAPH_MAX_NODES && s.links.total <= GRAPH_MAX_LINKS;

/**
 * Grows `agent` until it holds `share` of the cache's limit (nodes or links, whichever binds
 * first), in remembers of up to 400 messages; capacity is raised so that nothing is evicted: to the
 * local server's nodes-per-agent quota (a capacity above it is refused), above 1.1 × GRAPH_MAX_NODES.
 */
async function growToShare(agent: AgentApi, share: number, seed: number, step: (t: string) => void): Promise<{ messages: number }> {
  const capacity = quotaDefaults({}).nodesPerAgent;
  if (capacity < share * GRAPH_MAX_NODES) throw new Error(`the nodes-per-agent quota (${capacity}) is below ${share} of the cache's limit`);
  await agent.configure({ capacity });
  let stats = await agent.idleStats();
  let messages = 0;
  let perMessage = 1 / 40_000; // share of the limit per message, re-estimated after every call
  for (let call = 0; cacheShare(stats) < share; call += 1) {
    const chunk = Math.max(20, Math.min(400, Math.ceil(((share - cacheShare(stats)) / perMessage) * 1.02)));
    const before = cacheShare(stats);
    await agent.remember(chatStream("en", chunk, seed + call, `${agent.agentId}-grow-${seed}-${call}`));
    messages += chunk;
    stats = await agent.idleStats();
    perMessage = Math.max(1e-7, (cacheShare(stats) - before) / chunk);
    step(
      `cold: ${agent.agentId} ${stats.nodes.total} nodes, ${stats.links.total} links (${(cacheShare(stats) * 100).toFixed(1)}% of the cache)`,
    );
  }
  return { messages };
}

async function build(agent: AgentApi, size: ColdSize, step: (t: string) => void): Promise<ColdAgent> {
  const started = performance.now();
  let messages: number;
  if ("nodes" in size.target) messages = (await buildNetwork(agent, size.target.nodes, step)).messages;
  else messages = (await growToShare(agent, size.target.shareOfCacheLimit, 5000, step)).messages;
  const stats = await agent.idleStats();
  return {
    size: size.label,
    agentId: agent.agentId,
    nodes: stats.nodes.total,
    links: stats.links.total,
    messages,
    buildMs: performance.now() - started,
  };
}

/** One call of `kind` (sample `i`); its client-side latency. */
async function timedCall(agent: AgentApi, kind: ColdCall, i: number, rememberMessages: number): Promise<number> {
  switch (kind) {
    case "ping":
      return (await agent.ping()).ms;
    case "recall":
      return (await agent.recall({ keywords: keywordQueries("en", 1, 700 + i)[0] ?? [], depth: 2, limit: 20 })).ms;
    case "search": {
      const r = await agent.search({ query: searchQueries("en", 1, 800 + i)[0] ?? "", mode: "hybrid", top_k: 20 });
      if (r === null) throw new Error("the search endpoint answered 404");
      return r.ms;
    }
    case "context": {
      const request: ContextRequest = {
        query: searchQueries("en", 1, 900 + i)[0] ?? "",
        budget_tokens: CONTEXT_BUDGET,
        include: ["memories", "episodes", "traces"],
        locale: "en",
      };
      return (await agent.context(request)).ms;
    }
    case "remember":
      return (await agent.remember(chatStream("en", rememberMessages, 9000 + i, `${agent.agentId}-cold-${i}`))).ms;
  }
}

interface Sample {
  ms: number;
  d1: CallD1;
  /** The object's instance that answered (a new one after an eviction). */
  instance: string;
}

/** The call, then what the object counted for it; after a remember, its task runs to the end. */
async function sample(agent: AgentApi, hooks: BenchHooks, kind: ColdCall, i: number, settings: ColdSettings): Promise<Sample> {
  const ms = await timedCall(agent, kind, i, settings.rememberMessages);
  const usage = await hooks.usage(agent.agentId);
  if (kind === "remember") {
    await agent.idleStats();
    await hooks.usage(agent.agentId); // what the task and the wait counted: not the acknowledgement's
  }
  return { ms, d1: callD1(usage.lastRequest?.counts ?? {}), instance: usage.instance };
}

async function measure(
  agent: AgentApi,
  hooks: BenchHooks,
  size: ColdSize,
  rttMs: number,
  settings: ColdSettings,
  step: (t: string) => void,
): Promise<ColdRun[]> {
  const stats = await agent.idleStats();
  await hooks.usage(agent.agentId);
  const runs: ColdRun[] = [];
  for (const call of COLD_CALLS) {
    const cold: Sample[] = [];
    const warm: Sample[] = [];
    for (let r = 0; r < size.rounds; r += 1) {
      step(`cold: ${size.label} (${stats.nodes.total} nodes), ${rttMs} ms round trips, ${call} ${r + 1}/${size.rounds}`);
      const before = (await hooks.usage(agent.agentId)).instance;
      await hooks.evict(agent.agentId);
      const first = await sample(agent, hooks, call, rttMs * 100 + 2 * r, settings);
      if (first.instance === before) throw new Error(`${agent.agentId}: the same object answered after the eviction`);
      cold.push(first);
      warm.push(await sample(agent, hooks, call, rttMs * 100 + 2 * r + 1, settings));
    }
    const ms = (xs: Sample[]) => percentiles(xs.map((x) => x.ms));
    const d1 = (xs: Sample[], pick: (d: CallD1) => number) => median(xs.map((x) => pick(x.d1)));
    runs.push({
      size: size.label,
      nodes: stats.nodes.total,
      links: stats.links.total,
      cached: isCached(stats),
      rttMs,
      call,
      rounds: size.rounds,
      coldP50Ms: ms(cold)?.p50 ?? null,
      coldP95Ms: ms(cold)?.p95 ?? null,
      warmP50Ms: ms(warm)?.p50 ?? null,
      warmP95Ms: ms(warm)?.p95 ?? null,
      sequentialStatements: d1(cold, (d) => d.sequentialStatements),
      statements: d1(cold, (d) => d.statements),
      rowsRead: d1(cold, (d) => d.rowsRead),
      warmSequentialStatements: d1(warm, (d) => d.sequentialStatements),
      warmRowsRead: d1(warm, (d) => d.rowsRead),
    });
  }
  return runs;
}

/** A server over the kept storage with `rttMs` of simulated D1 round trip; always stopped. */
async function withServer<T>(persistDir: string, rttMs: number, body: (server: BenchServer) => Promise<T>): Promise<T> {
  const vars = { ...VARS, BENCH_D1_RTT_MS: String(rttMs) };
  const server = await startBenchServer(
    "cold",
    Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    { persistDir },
  );
  try {
    return await body(server);
  } catch (e) {
    process.stderr.write(`\n--- cold: last lines of wrangler dev ---\n${server.output().split("\n").slice(-30).join("\n")}\n---\n`);
    throw e;
  } finally {
    await server.stop();
  }
}

function client(server: BenchServer, agentId: string): AgentApi {
  const agent = new AgentApi(new HttpClient(server.url), agentId);
  agent.hedgeAfterMs = NO_HEDGE_MS;
  return agent;
}

/** The first call of a fresh isolate: a context call on the agent `agentId`, then another. */
async function freshIsolate(server: BenchServer, agentId: string, rttMs: number): Promise<FreshIsolate> {
  const agent = client(server, agentId);
  const hooks = new BenchHooks(server.url);
  const first = await sample(agent, hooks, "context", 1, COLD_QUICK);
  const second = await sample(agent, hooks, "context", 2, COLD_QUICK);
  const stats = await agent.idleStats();
  return {
    nodes: stats.nodes.total,
    rttMs,
    call: "context",
    firstMs: first.ms,
    secondMs: second.ms,
    sequentialStatements: first.d1.sequentialStatements,
    rowsRead: first.d1.rowsRead,
  };
}

export { COLD_FULL, COLD_QUICK } from "./cold-result";

export async function coldBench(settings: ColdSettings, step: (t: string) => void): Promise<ColdResult> {
  const started = performance.now();
  const persistDir = path.join(ROOT, ".wrangler", `bench-cold-${process.pid}`);
  const cleanUp = (): void => removeKeptServerDirs(persistDir);
  process.on("exit", cleanUp);
  const agentOf = (size: ColdSize): string => `cold-${size.label.replace(/[^a-z0-9]+/gi, "-")}`;
  const result: ColdResult = {
    settings,
    limits: { graphMaxNodes: GRAPH_MAX_NODES, graphMaxLinks: GRAPH_MAX_LINKS },
    agents: [],
    runs: [],
    freshIsolate: [],
    wallMs: 0,
  };
  try {
    await withServer(persistDir, 0, async (server) => {
      for (const size of settings.sizes) result.agents.push(await build(client(server, agentOf(size)), size, step));
    });
    // The isolate's first call goes to the agent of 10k nodes when there is one (the figure).
    const probe = settings.sizes.find((s) => "nodes" in s.target && s.target.nodes === 10_000) ?? settings.sizes[0];
    if (!probe) throw new Error("no agent size to measure");
    for (const rttMs of settings.rttsMs) {
      await withServer(persistDir, rttMs, async (server) => {
        result.freshIsolate.push(await freshIsolate(server, agentOf(probe), rttMs));
        const hooks = new BenchHooks(server.url);
        for (const size of settings.sizes)
          result.runs.push(...(await measure(client(server, agentOf(size)), hooks, size, rttMs, settings, step)));
      });
    }
    const past = settings.past;
    const largest = settings.sizes.at(-1);
    if (past && largest) {
      // The largest agent grows past the limit; the same agent, so its rounds above stay comparable.
      await withServer(persistDir, 0, async (server) => {
        const agent = client(server, agentOf(largest));
        const grownFrom = performance.now();
        const share = "shareOfCacheLimit" in past.target ? past.target.shareOfCacheLimit : 1.1;
        const grown = await growToShare(agent, share, 7000, step);
        const stats = await agent.idleStats();
        result.agents.push({
          size: past.label,
          agentId: agent.agentId,
          nodes: stats.nodes.total,
          links: stats.links.total,
          messages: grown.messages,
          buildMs: performance.now() - grownFrom,
        });
      });
      for (const rttMs of settings.rttsMs) {
        await withServer(persistDir, rttMs, async (server) => {
          result.runs.push(...(await measure(client(server, agentOf(largest)), new BenchHooks(server.url), past, rttMs, settings, step)));
        });
      }
    }
  } finally {
    cleanUp();
    process.off("exit", cleanUp);
  }
  result.wallMs = performance.now() - started;
  return result;
}
