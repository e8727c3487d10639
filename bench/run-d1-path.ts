/**
 * Probe of the D1-served reads (an agent past the graph's limits, docs/design.md "Decision 3"):
 * an agent built in this process from the speed benchmark's chat stream (bench/offline: the
 * object's runtime and operations over in-memory SQLite, no Worker), then recall (two keywords,
 * depth 2, as the cold section asks) and search (hybrid) with the graph not held (its limits set
 * to 0), each statement counted and timed by its SQL's shape. For finding where the D1 path's time
 * goes, not a record: `npm run bench:speed -- --cold-only --cold-sizes past` is the record.
 *
 *   npm run bench:d1-path -- [--messages 4000] [--rounds 5] [--rtt 0,50] [--trace] [--explain] [--profile FILE] [--sql 'CREATE INDEX …']
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { parseArgs } from "node:util";
import type { AgentState } from "../src/agent/agent-state";
import { DEFAULT_PARAMS } from "../src/config/params";
import { RecallQuerySchema } from "../src/operations/recall/schemas";
import { runRecall } from "../src/operations/recall/task";
import { SearchQuerySchema } from "../src/operations/search-memories/schemas";
import { runSearch } from "../src/operations/search-memories/task";
import { OfflineAgent } from "./offline/offline-agent";
import { chatStream, keywordQueries, searchQueries } from "./speed/streams";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "4000" },
    rounds: { type: "string", default: "5" },
    explain: { type: "boolean", default: false },
    profile: { type: "string" },
    /** Prints the round trips of the first recall in order (→ sequential, ∥ beside another). */
    trace: { type: "boolean", default: false },
    /** SQL run on the D1 database before the reads (an index to try, say). */
    sql: { type: "string", multiple: true, default: [] },
    /** Simulated round trips before every statement and batch (ms, a comma list: a pass each), as BENCH_D1_RTT_MS adds. */
    rtt: { type: "string", default: "0" },
  },
});
const MESSAGES = Number(values.messages);
const ROUNDS = Number(values.rounds);
const CHUNK = 400;
const RTTS = values.rtt.split(",").map(Number);
let rttMs = 0;
const roundTrip = (): Promise<void> => (rttMs > 0 ? new Promise((resolve) => setTimeout(resolve, rttMs)) : Promise.resolve());

/** Per SQL shape: how many statements and how long they took (ms). */
class StatementLog {
  readonly byShape = new Map<string, { n: number; ms: number; rows: number }>();
  /** One statement of each shape as sent, for its query plan. */
  readonly examples = new Map<string, { query: string; params: unknown[] }>();
  roundTrips = 0;
  /** Round trips that started while no other was in flight (what a call waits for one after another). */
  sequential = 0;
  inFlight = 0;

  /** The round trips in order, with whether each was sequential (--trace). */
  readonly order: string[] = [];

  /** Around one round trip: counts it, waits the simulated network, runs it. */
  async trip<T>(run: () => Promise<T>, shape: string): Promise<T> {
    this.roundTrips += 1;
    if (this.inFlight === 0) this.sequential += 1;
    if (values.trace) this.order.push(`${this.inFlight === 0 ? "→" : "∥"} ${shape.replace(/\s+/g, " ").trim().slice(0, 100)}`);
    this.inFlight += 1;
    try {
      await roundTrip();
      return await run();
    } finally {
      this.inFlight -= 1;
    }
  }

  add(query: string, ms: number, rows: number, params: unknown[] = []): void {
    const shape = query
      .replace(/\s+/g, " ")
      .replace(/\?(, \?)*/g, "?")
      .slice(0, 110);
    if (!this.examples.has(shape)) this.examples.set(shape, { query, params });
    const entry = this.byShape.get(shape) ?? { n: 0, ms: 0, rows: 0 };
    entry.n += 1;
    entry.ms += ms;
    entry.rows += rows;
    this.byShape.set(shape, entry);
  }

  reset(): void {
    this.byShape.clear();
    this.roundTrips = 0;
    this.sequential = 0;
    this.order.length = 0;
  }
}

/** The D1 binding with every statement timed (all/raw/first/run, and each of a batch). */
function timed(d1: D1Database, log: StatementLog): D1Database {
  const wrapStatement = (s: D1PreparedStatement, query: string, params: unknown[] = []): D1PreparedStatement =>
    new Proxy(s, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        const fn = value as (...a: unknown[]) => unknown;
        if (prop === "bind") return (...a: unknown[]) => wrapStatement(fn.apply(target, a) as D1PreparedStatement, query, a);
        if (prop === "all" || prop === "raw" || prop === "first" || prop === "run") {
          return async (...a: unknown[]) => {
            let started = 0;
            const out = await log.trip(() => {
              started = performance.now();
              return fn.apply(target, a) as Promise<unknown>;
            }, query);
            const rows = Array.isArray(out)
              ? out.length
              : Array.isArray((out as { results?: unknown[] })?.results)
                ? (out as { results: unknown[] }).results.length
                : 1;
            log.add(query, performance.now() - started, rows, params);
            return out;
          };
        }
        return fn.bind(target);
      },
    });
  return new Proxy(d1, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop === "prepare") return (query: string) => wrapStatement(target.prepare(query), query);
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          let started = 0;
          const out = await log.trip(() => {
            started = performance.now();
            return target.batch(statements);
          }, `batch of ${statements.length}`);
          log.add(`batch of ${statements.length}`, performance.now() - started, 0);
          return out;
        };
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function report(title: string, log: StatementLog, ms: number[]): void {
  const sorted = [...ms].sort((a, b) => a - b);
  const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]?.toFixed(0);
  console.log(
    `\n${title}: p50 ${p(0.5)} ms, max ${p(1)} ms; per call ${(log.roundTrips / ms.length).toFixed(1)} round trips, ${(log.sequential / ms.length).toFixed(1)} sequential`,
  );
  const rows = [...log.byShape].sort((a, b) => b[1].ms - a[1].ms);
  for (const [shape, e] of rows.slice(0, 12)) {
    console.log(
      `  ${(e.n / ms.length).toFixed(1).padStart(6)} × ${(e.ms / ms.length).toFixed(0).padStart(6)} ms ${String(Math.round(e.rows / ms.length)).padStart(7)} rows  ${shape}`,
    );
  }
}

/** Recall and search, ROUNDS each, with the statements of each reported. */
async function reads(state: AgentState, log: StatementLog, label: string): Promise<void> {
  // A CPU profile of the recalls (--profile FILE: a .cpuprofile for Chrome's DevTools).
  const session = values.profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
  }
  const recallMs: number[] = [];
  log.reset();
  for (let i = 0; i < ROUNDS; i++) {
    const request = RecallQuerySchema.parse({
      keywords: keywordQueries("en", 1, 700 + i)[0] ?? [],
      relations: [],
      depth: 2,
      limit: 20,
      start: "hybrid",
    });
    const t = performance.now();
    await runRecall(state, request);
    recallMs.push(performance.now() - t);
    if (i === 0 && values.trace) console.log(`\nthe first recall's round trips${label}:\n  ${log.order.join("\n  ")}`);
  }
  report(`recall (D1 path)${label}`, log, recallMs);
  if (session && values.profile) {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(`${values.profile}${label.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }

  const searchMs: number[] = [];
  log.reset();
  for (let i = 0; i < ROUNDS; i++) {
    const request = SearchQuerySchema.parse({
      query: searchQueries("en", 1, 800 + i)[0] ?? "",
      mode: "hybrid",
      top_k: 20,
      kinds: ["segment"],
    });
    const t = performance.now();
    await runSearch(state, request);
    searchMs.push(performance.now() - t);
  }
  report(`search (D1 path)${label}`, log, searchMs);
}

async function main(): Promise<void> {
  const started = performance.now();
  const agent = await OfflineAgent.create({ ...DEFAULT_PARAMS, capacity: 1_000_000 });
  for (let sent = 0, call = 0; sent < MESSAGES; sent += CHUNK, call += 1) {
    await agent.remember(chatStream("en", Math.min(CHUNK, MESSAGES - sent), 5000 + call, `probe-${call}`));
  }
  const state = agent.state;
  // Counted in D1 (the graph is not held past the limits); the largest block against D1's 2 MB a row.
  const size = await state.network.d1Shards.primary
    .prepare(
      `SELECT (SELECT count(*) FROM nodes) AS nodes, (SELECT count(*) FROM links) AS links,
              (SELECT count(*) FROM link_blocks) AS blocks, (SELECT max(length(body)) FROM link_blocks) AS largest`,
    )
    .first<{ nodes: number; links: number; blocks: number; largest: number }>();
  console.log(
    `built: ${size?.nodes} nodes, ${size?.links} links in ${size?.blocks} blocks (largest ${size?.largest} bytes) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const log = new StatementLog();
  state.network.d1Shards = state.network.d1Shards.with(
    Object.fromEntries(state.network.d1Shards.names.map((name) => [name, timed(state.network.d1Shards.get(name), log)])),
  );
  state.network.pastLimits.limits = { nodes: 0, links: 0 };
  state.dropGraph();
  if (await state.graph()) throw new Error("the graph is still held");
  for (const rtt of RTTS) {
    rttMs = rtt;
    await reads(state, log, ` at ${rtt} ms round trips`);
  }
  // With --sql: the same reads again after it, on the same agent (a paired comparison).
  if (values.sql.length > 0) {
    for (const statement of values.sql) await state.network.d1Shards.primary.prepare(statement).run();
    await reads(state, log, ` at ${rttMs} ms round trips, after --sql`);
  }
  if (values.explain) {
    const d1 = state.network.d1Shards.primary;
    for (const [shape, { query, params }] of log.examples) {
      const plan = await d1
        .prepare(`EXPLAIN QUERY PLAN ${query}`)
        .bind(...params)
        .all<{ detail: string }>();
      console.log(`\n${shape}\n${plan.results.map((r) => `  ${r.detail}`).join("\n")}`);
    }
  }
  agent.close();
}

await main();
