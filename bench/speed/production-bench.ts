/**
 * The production-shaped run of bench:speed: the Worker's Workers AI provider (MODEL_PROVIDER
 * "workers-ai") against the simulated service of ai-simulator.ts (the local model's answers after
 * Workers AI's latency, the account's rate limits enforced), with local D1. What bounds the
 * hosted product is the model, so this is where throughput and calls are measured:
 *
 *   - ingest: one agent, the English stream sent as remembers of `batch` messages without waiting,
 *     first remember to idle queue;
 *   - calls and tokens: what the simulator served during that ingestion, per remember and per 100
 *     messages, by operation (the JSON schema's name);
 *   - recall: free-text recalls on that agent (~1,000 nodes), each next to a floor ping;
 *   - accounts: `accountAgents` agents ingesting `accountMessages` each at once, sharing the
 *     account's limits; stopped at `accountCapMs` of simulated time if not done (the figure is then
 *     the messages remembered by the cap, per minute);
 *   - fair share: tenants remembering at a steady pace, alone and beside another tenant's backlog
 *     that makes text generation the bound (fair-share-bench.ts).
 *
 * With `timeScale` < 1 every simulated latency and the limits' minute shrink alike (the Worker's
 * request budgets get the same minute through AI_RATE_WINDOW_MS), and times are reported in
 * simulated milliseconds (measured ÷ timeScale). The Worker's own work does not shrink, so a
 * scaled run understates throughput and overstates latency: it is a smoke check, not a figure.
 */
import { LOCAL_OPERATOR_SECRET } from "../../scripts/local-server.mjs";
import { AgentApi } from "../driver/agent-api";
import { HttpClient } from "../driver/http";
import { counter, type Stats } from "../driver/schemas";
import { withBenchServer } from "../driver/server";
import { AiSimulator, ACCOUNT_TEXT_PER_MINUTE, EMBEDDING_LATENCY_MS, TEXT_LATENCY_MS, type Counts } from "./ai-simulator";
import { sampleWithFloor, warmUp } from "./floor";
import { workerdCpuMs } from "./process-cpu";
import { chatStream, searchQueries } from "./streams";
import { FAIR_SHARE_FULL, FAIR_SHARE_QUICK, fairShareBench, type FairShareResult, type FairShareSettings } from "./fair-share-bench";

export interface ProductionSettings {
  timeScale: number;
  /** MODEL_POLICY of the run (src/config/model-policy.ts); "" is the deployment default. */
  modelPolicy: string;
  streamMessages: number;
  batch: number;
  recallSamples: number;
  accountAgents: number;
  accountMessages: number;
  /** Longest the accounts run may take, in simulated ms. */
  accountCapMs: number;
  fairShare: FairShareSettings;
  /** AI_FAIR_SHARE: false runs the Worker without the account's coordinator (a comparison). */
  fairShareOn: boolean;
}

export const PRODUCTION_FULL: Omit<ProductionSettings, "timeScale" | "modelPolicy" | "fairShareOn"> = {
  streamMessages: 1000,
  batch: 10,
  recallSamples: 100,
  accountAgents: 20,
  accountMessages: 500,
  accountCapMs: 5 * 60_000,
  fairShare: FAIR_SHARE_FULL,
};
export const PRODUCTION_QUICK: Omit<ProductionSettings, "timeScale" | "modelPolicy" | "fairShareOn"> = {
  streamMessages: 200,
  batch: 10,
  recallSamples: 20,
  accountAgents: 5,
  accountMessages: 100,
  accountCapMs: 2 * 60_000,
  fairShare: FAIR_SHARE_QUICK,
};

export interface OperationFigures {
  calls: number;
  refused: number;
  tokensIn: number;
  tokensOut: number;
}

/**
 * What a phase spent of the billed platform resources, scaled to 1,000 messages remembered or
 * 1,000 recalls: the agent's own counters (BENCH_USAGE_COUNTERS, src/agent/usage-meter.ts) and
 * the local runtime's CPU. The benchmark's own probes (stats polls, floor pings) are left out of
 * the request counts; their time is inside the active time and the CPU.
 */
export interface UsageFigures {
  /** HTTP requests to the Worker (remembers or recalls). */
  workerRequests: number;
  /** Calls into the agent's Durable Object (RPC methods and alarms), probes left out. */
  doRequests: number;
  doRequestsByMethod: Record<string, number>;
  /** Wall time the object handled a request, an alarm or a queue drain (overlaps once). */
  doActiveMs: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  /** The same rows by kind of statement (src/storage/metered-d1.ts, statementKind), largest first. */
  d1RowsWrittenByKind: Record<string, number>;
  d1RowsReadByKind: Record<string, number>;
  /** The object's own SQLite rows (src/storage/metered-do-sql.ts; billed at D1's prices), alarms not included. */
  doRowsRead: number;
  doRowsWritten: number;
  doRowsWrittenByKind: Record<string, number>;
  /** D1 statements whose rows could not be counted (0 expected; metered-d1.ts). */
  d1StatementsUnmetered: number;
  vectorQueries: number;
  vectorsUpserted: number;
  vectorDimensionsUpserted: number;
  vectorsRemoved: number;
  /** CPU time of the local workerd over the phase (Worker, objects and the D1 simulator: an upper bound). */
  workerdCpuMs: number | null;
}

export interface ProductionResult {
  settings: ProductionSettings & { textLatencyMs: number; embeddingLatencyMs: number; accountTextPerMinute: number };
  ingest: {
    messages: number;
    remembers: number;
    wallMs: number;
    messagesPerSecond: number;
    nodes: number;
    fallbacks: number;
    failures: number;
    rateLimitWaits: number;
  };
  calls: {
    textPerRemember: number;
    textPerRecall: number;
    embeddingPerRemember: number;
    /** Ingestion's calls by operation, per remember. */
    perRememberByOperation: Record<string, number>;
  };
  /** Estimated tokens per 100 messages ingested, by operation (in: prompt, out: answer). */
  tokensPer100Messages: Record<string, { in: number; out: number }>;
  recall: { samples: number; p50Ms: number | null; p95Ms: number | null; floorP50Ms: number | null; floorP95Ms: number | null };
  usage: {
    perThousandMessages: UsageFigures;
    perThousandRecalls: UsageFigures;
    /** Vectors the agent's index holds after ingestion, and their length. */
    vectorsStored: number | null;
    vectorDimensions: number | null;
  };
  accounts: {
    agents: number;
    messagesPerAgent: number;
    messagesRemembered: number;
    completed: boolean;
    wallMs: number;
    messagesPerMinute: number;
    refused429: number;
    fallbacks: number;
    failedTasks: number;
  };
  fairShare: FairShareResult;
}

const TEXT = (op: string): boolean => op !== "embedding";

function diff(after: Counts, before: Counts): Record<string, OperationFigures> {
  const out: Record<string, OperationFigures> = {};
  for (const [op, a] of Object.entries(after)) {
    const b = before[op] ?? { calls: 0, refused: 0, tokensIn: 0, tokensOut: 0 };
    out[op] = {
      calls: a.calls - b.calls,
      refused: a.refused - b.refused,
      tokensIn: a.tokensIn - b.tokensIn,
      tokensOut: a.tokensOut - b.tokensOut,
    };
  }
  return out;
}

const sum = (ops: Record<string, OperationFigures>, pick: (op: string) => boolean, field: keyof OperationFigures): number =>
  Object.entries(ops).reduce((a, [op, f]) => (pick(op) ? a + f[field] : a), 0);

const modelCounters = (s: Stats) => ({
  fallbacks: counter(s, "model_fallbacks"),
  failures: counter(s, "model_failures"),
  rateLimitWaits: counter(s, "model_rate_limit_waits"),
});

/** Requests the benchmark makes only to watch the agent. */
const PROBES = new Set(["stats", "ping"]);
const REQUEST_PREFIX = "do_requests_";

/** The usage between two stats of one agent, times `scale`. */
function usageBetween(
  before: Stats,
  after: Stats,
  cpu: { before: number | null; after: number | null },
  workerRequests: number,
  scale: number,
): UsageFigures {
  const delta = (name: string): number => (counter(after, name) - counter(before, name)) * scale;
  const byKind = (prefix: string): Record<string, number> =>
    Object.fromEntries(
      Object.keys(after.counters)
        .filter((name) => name.startsWith(prefix) && delta(name) > 0)
        .map((name): [string, number] => [name.slice(prefix.length), delta(name)])
        .sort((a, b) => b[1] - a[1]),
    );
  const byMethod: Record<string, number> = {};
  for (const name of Object.keys(after.counters)) {
    if (!name.startsWith(REQUEST_PREFIX)) continue;
    const method = name.slice(REQUEST_PREFIX.length);
    if (!PROBES.has(method) && delta(name) > 0) byMethod[method] = delta(name);
  }
  return {
    workerRequests: workerRequests * scale,
    doRequests: Object.values(byMethod).reduce((a, n) => a + n, 0),
    doRequestsByMethod: byMethod,
    doActiveMs: delta("do_active_ms"),
    d1RowsRead: delta("d1_rows_read"),
    d1RowsWritten: delta("d1_rows_written"),
    d1RowsWrittenByKind: byKind("d1_rows_written:"),
    d1RowsReadByKind: byKind("d1_rows_read:"),
    doRowsRead: delta("do_rows_read"),
    doRowsWritten: delta("do_rows_written"),
    doRowsWrittenByKind: byKind("do_rows_written:"),
    d1StatementsUnmetered: delta("d1_statements_unmetered"),
    vectorQueries: delta("vector_queries"),
    vectorsUpserted: delta("vectors_upserted"),
    vectorDimensionsUpserted: delta("vector_dimensions_upserted"),
    vectorsRemoved: delta("vectors_removed"),
    workerdCpuMs: cpu.before === null || cpu.after === null ? null : (cpu.after - cpu.before) * scale,
  };
}

export async function productionBench(settings: ProductionSettings, step: (text: string) => void): Promise<ProductionResult> {
  const sim = new AiSimulator({ timeScale: settings.timeScale, seed: 24 });
  const url = await sim.start();
  const scale = settings.timeScale;
  const vars = {
    MODEL_PROVIDER: "workers-ai",
    AI_TEXT_MODEL: "@cf/google/gemma-4-26b-a4b-it",
    AI_SIMULATOR_URL: url,
    AI_RATE_WINDOW_MS: String(sim.windowMs),
    BENCH_USAGE_COUNTERS: "1",
    // The fair-share run creates its tenants' keys through the admin API.
    OPERATOR_SECRET: LOCAL_OPERATOR_SECRET,
    AI_FAIR_SHARE: settings.fairShareOn ? "on" : "off",
    ...(settings.modelPolicy === "" ? {} : { MODEL_POLICY: settings.modelPolicy }),
  };
  try {
    const main = await withBenchServer(
      "speed-production",
      async (server) => {
        const http = new HttpClient(server.url);
        const agent = new AgentApi(http, "production-ingest");
        const stream = chatStream("en", settings.streamMessages, 101, agent.agentId);
        await warmUp(agent, 10);
        const statsBefore = await agent.stats();
        const cpuBefore = workerdCpuMs(server.pid);
        const before = sim.snapshot();
        const started = performance.now();
        for (let i = 0; i < stream.length; i += settings.batch) {
          await agent.remember(stream.slice(i, i + settings.batch));
          step(`production: remember ${i / settings.batch + 1}/${Math.ceil(stream.length / settings.batch)}`);
        }
        step("production: waiting for the queue to drain");
        const stats = await agent.idleStats();
        const wallMs = (performance.now() - started) / scale;
        const cpuAfterIngest = workerdCpuMs(server.pid);
        const ingestOps = diff(sim.snapshot(), before);
        const remembers = Math.ceil(stream.length / settings.batch);
        const perRemember = Object.fromEntries(Object.entries(ingestOps).map(([op, f]) => [op, f.calls / remembers]));
        const tokens = Object.fromEntries(
          Object.entries(ingestOps).map(([op, f]) => [
            op,
            { in: (f.tokensIn * 100) / stream.length, out: (f.tokensOut * 100) / stream.length },
          ]),
        );

        const recallBefore = sim.snapshot();
        const queries = searchQueries("en", settings.recallSamples, 13);
        const { summary } = await sampleWithFloor(
          agent,
          settings.recallSamples,
          async (i) => (await agent.recall({ query: queries[i] ?? "", depth: 2, limit: 20 })).ms,
          (d, t) => step(`production: recall ${d}/${t}`),
        );
        const recallOps = diff(sim.snapshot(), recallBefore);
        const statsAfterRecall = await agent.stats();
        const cpuAfterRecall = workerdCpuMs(server.pid);
        const vectorsStored = stats.vector_index?.vectors ?? null;
        const usage = {
          perThousandMessages: usageBetween(
            statsBefore,
            stats,
            { before: cpuBefore, after: cpuAfterIngest },
            remembers,
            1000 / stream.length,
          ),
          perThousandRecalls: usageBetween(
            stats,
            statsAfterRecall,
            { before: cpuAfterIngest, after: cpuAfterRecall },
            settings.recallSamples,
            1000 / settings.recallSamples,
          ),
          vectorsStored,
          vectorDimensions:
            counter(stats, "vectors_upserted") > 0
              ? counter(stats, "vector_dimensions_upserted") / counter(stats, "vectors_upserted")
              : null,
        };

        const accounts = await accountsRun(http, sim, settings, step);
        return {
          settings: {
            ...settings,
            textLatencyMs: TEXT_LATENCY_MS,
            embeddingLatencyMs: EMBEDDING_LATENCY_MS,
            accountTextPerMinute: ACCOUNT_TEXT_PER_MINUTE,
          },
          ingest: {
            messages: stream.length,
            remembers,
            wallMs,
            messagesPerSecond: stream.length / (wallMs / 1000),
            nodes: stats.nodes.total,
            ...modelCounters(stats),
          },
          calls: {
            textPerRemember: sum(ingestOps, TEXT, "calls") / remembers,
            textPerRecall: sum(recallOps, TEXT, "calls") / settings.recallSamples,
            embeddingPerRemember: (ingestOps.embedding?.calls ?? 0) / remembers,
            perRememberByOperation: perRemember,
          },
          tokensPer100Messages: tokens,
          recall: {
            samples: settings.recallSamples,
            p50Ms: summary.ms?.p50 ?? null,
            p95Ms: summary.ms?.p95 ?? null,
            floorP50Ms: summary.floorMs?.p50 ?? null,
            floorP95Ms: summary.floorMs?.p95 ?? null,
          },
          usage,
          accounts,
        };
      },
      vars,
    );
    // On a server of its own: the accounts run may stop at its cap with work still queued, which
    // would run beside the steady tenants and take the account's model budget from them.
    const fairShare = await withBenchServer(
      "speed-fair-share",
      (server) =>
        fairShareBench(
          server.url,
          sim,
          settings.fairShare,
          { timeScale: scale, fairShare: settings.fairShareOn, accountTextPerMinute: ACCOUNT_TEXT_PER_MINUTE },
          step,
        ),
      vars,
    );
    return { ...main, fairShare };
  } finally {
    await sim.stop();
  }
}

/** Every agent sends its whole stream at once; all share the simulated account. */
async function accountsRun(
  http: HttpClient,
  sim: AiSimulator,
  settings: ProductionSettings,
  step: (text: string) => void,
): Promise<ProductionResult["accounts"]> {
  const scale = settings.timeScale;
  const agents = Array.from({ length: settings.accountAgents }, (_, i) => new AgentApi(http, `production-account-${i}`));
  const before = sim.snapshot();
  const started = performance.now();
  await Promise.all(
    agents.map(async (agent, a) => {
      const stream = chatStream("en", settings.accountMessages, 1000 + a, agent.agentId);
      for (let i = 0; i < stream.length; i += settings.batch) await agent.remember(stream.slice(i, i + settings.batch));
    }),
  );
  const deadline = started + settings.accountCapMs * scale;
  const finals = new Map<number, Stats>();
  let latest: Stats[] = [];
  for (;;) {
    latest = await Promise.all(agents.map((agent, i) => finals.get(i) ?? agent.stats(Math.min(5_000, 1_000 * scale + 500))));
    latest.forEach((s, i) => {
      if (s.queue.queued === 0 && s.queue.running === 0) finals.set(i, s);
    });
    const remembered = latest.reduce((a, s) => a + counter(s, "remembers"), 0) * settings.batch;
    step(`production accounts: ${remembered}/${settings.accountAgents * settings.accountMessages} messages`);
    if (finals.size === agents.length || performance.now() > deadline) break;
  }
  const wallMs = (performance.now() - started) / scale;
  const ops = diff(sim.snapshot(), before);
  const messagesRemembered = latest.reduce((a, s) => a + counter(s, "remembers"), 0) * settings.batch;
  return {
    agents: settings.accountAgents,
    messagesPerAgent: settings.accountMessages,
    messagesRemembered,
    completed: finals.size === agents.length,
    wallMs,
    messagesPerMinute: messagesRemembered / (wallMs / 60_000),
    refused429: sum(ops, () => true, "refused"),
    fallbacks: latest.reduce((a, s) => a + counter(s, "model_fallbacks"), 0),
    failedTasks: latest.reduce((a, s) => a + s.queue.failed, 0),
  };
}
