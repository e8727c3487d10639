/**
 * Speed of the memory API, driven over HTTP against a local `wrangler dev --local` that this script
 * starts and stops:
 *
 *   npm run bench:speed [-- --quick] [-- --load-only] [-- --ingest-only] [-- --latency-only] [-- --production-only] [-- --cold-only] [-- --time-scale S]
 *
 * Every latency is reported beside a floor measured in the same run (speed/floor.ts): remember
 * acknowledgement and ingestion throughput (English and Chinese streams), recall and search latency
 * and compression cycles on agents of ~1k and ~10k nodes (recall, search and context also with a
 * filter keeping one session of about 10 %: speed/filtered-bench.ts), many agents written concurrently with a
 * leakage check, storage per node, and a load run (100 agents × 1,000 messages written at once,
 * every message id accounted for). --quick: smaller sizes for a smoke check; it writes
 * bench/results/speed-quick.json and leaves docs/BENCHMARKS.md alone. --load-only: only the load
 * run; it writes bench/results/speed-load(-quick).json and leaves docs/BENCHMARKS.md alone.
 * --ingest-only: only the two ingestion streams (acknowledgement, remember tasks' time per message),
 * for paired comparisons of builds; it writes bench/results/speed-ingest.json and leaves
 * docs/BENCHMARKS.md alone.
 * --latency-only: only the agents of ~1k and ~10k nodes and what is measured on them (recall,
 * search, context, profile, the filtered reads, compression), for paired comparisons of builds; it writes
 * bench/results/speed-latency(-quick).json and leaves docs/BENCHMARKS.md alone.
 * --production-only: only the production-shaped run (speed/production-bench.ts: the Workers AI
 * provider against a simulated service with its latency and account limits); it writes
 * bench/results/speed-production(-quick).json and leaves docs/BENCHMARKS.md alone. --time-scale S
 * shrinks the simulated latencies and the limits' minute by S (default 1, real time; --quick uses
 * 0.1 so the smoke check takes about a minute): a scaled run is a smoke check, not a figure.
 * --cold-only: only the cold path (speed/cold-bench.ts: the first call after the agent's object was
 * evicted, beside the warm call, with simulated D1 round trips of 0, 50 and 150 ms; its own servers);
 * it writes bench/results/speed-cold(-quick).json and leaves docs/BENCHMARKS.md alone. The full
 * run and --quick (smaller: one 1k agent, 0 and 50 ms, two rounds) include it. --cold-sizes 1k,10k
 * measures only the agents named (1k, 10k, largest, past) and writes speed-cold-1k-10k.json.
 * --model-policy P sets the run's MODEL_POLICY (e.g. "conflicts=local"; default: the deployment's).
 * Exits non-zero on any HTTP error, on any cross-agent leakage and on any message the load run
 * cannot account for.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../scripts/local-server.mjs";
import { AgentApi } from "./driver/agent-api";
import { writeDocSection } from "./driver/docs-section";
import { HttpClient } from "./driver/http";
import { createProgress } from "./driver/progress";
import { runInfo, runInfoMarkdown } from "./driver/run-info";
import { vectorIndexBytes, type Stats } from "./driver/schemas";
import { describeError, withBenchServer } from "./driver/server";
import { renderTables } from "./lib/table";
import { COLD_FULL, COLD_QUICK, coldBench } from "./speed/cold-bench";
import { selectColdSizes } from "./speed/cold-result";
import { compressBench } from "./speed/compress-bench";
import { filteredLatency } from "./speed/filtered-bench";
import { ingestBench } from "./speed/ingest-bench";
import { isolationBench } from "./speed/isolation-bench";
import { loadBench } from "./speed/load-bench";
import { PRODUCTION_FULL, PRODUCTION_QUICK, productionBench } from "./speed/production-bench";
import { contextLatency, recallLatency, searchLatency } from "./speed/latency-bench";
import { scanWaitBench } from "./speed/scan-wait-bench";
import { singleOpsBench } from "./speed/single-ops-bench";
import { buildNetwork, type Network } from "./speed/network";
import { SPEED_SCHEMA, speedGoals, type SpeedResult, type SpeedSettings, type Storage } from "./speed/result";
import { storageBytes, totalBytes, type StorageBytes } from "./speed/storage";
import { speedTables } from "./speed/tables";

const FLOOR = "GET /v1/agents/:id/ping on the same agent (reaches its Durable Object, runs SELECT 1 on D1), interleaved";

const FULL: Omit<SpeedSettings, "quick" | "floor"> = {
  streamMessages: 1000,
  batch: 10,
  networkTargets: [1000, 10_000],
  recallSamples: 200,
  searchSamples: 100,
  cycles: 5,
  scanProbes: 10,
  singleOpSamples: 20,
  agents: 100,
  messagesPerAgent: 20,
  loadAgents: 100,
  loadMessagesPerAgent: 1000,
};
const QUICK: typeof FULL = {
  streamMessages: 200,
  batch: 10,
  networkTargets: [300, 1000],
  recallSamples: 40,
  searchSamples: 20,
  cycles: 3,
  scanProbes: 3,
  singleOpSamples: 5,
  agents: 10,
  messagesPerAgent: 8,
  loadAgents: 10,
  loadMessagesPerAgent: 100,
};

/** The tables of a --latency-only run: what is measured on the agents of ~1k and ~10k nodes. */
const LATENCY_TABLES = [
  "recall latency",
  "search latency",
  "context block",
  "filtered reads",
  "compression cycle",
  "recall sent while",
  "Speed goals",
];

const perNode = (bytes: number | null, nodes: number): number | null => (bytes === null || nodes === 0 ? null : bytes / nodes);

function storageOf(persistDir: string, empty: StorageBytes, stats: readonly Stats[]): Storage {
  const d1 = storageBytes(persistDir, "d1");
  const dos = storageBytes(persistDir, "do");
  const nodes = stats.reduce((a, s) => a + s.nodes.total, 0);
  const vectors = stats.map(vectorIndexBytes);
  const vectorBytes = vectors.every((v): v is number => v !== null) ? vectors.reduce((a, v) => a + v, 0) : null;
  const bytes = totalBytes(d1) - totalBytes(empty);
  return {
    agents: stats.length,
    nodes,
    links: stats.reduce((a, s) => a + s.links.total, 0),
    d1: {
      emptyBytes: totalBytes(empty),
      bytes,
      walBytes: d1.wal,
      bytesPerNode: perNode(bytes, nodes),
      withoutWalPerNode: perNode(d1.main - empty.main, nodes),
    },
    durableObjects: { bytes: totalBytes(dos), bytesPerNode: perNode(totalBytes(dos), nodes) },
    vectorIndex: { bytes: vectorBytes, bytesPerNode: perNode(vectorBytes, nodes) },
  };
}

/** "conflicts=local,compression=local" → "-conflicts-local-compression-local" (a file name part). */
const policyTag = (policy: string): string => (policy === "" ? "" : `-${policy.replace(/[^a-z]+/gi, "-").replace(/^-|-$/g, "")}`);

async function main(): Promise<void> {
  const started = performance.now();
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      "load-only": { type: "boolean", default: false },
      "ingest-only": { type: "boolean", default: false },
      "latency-only": { type: "boolean", default: false },
      "production-only": { type: "boolean", default: false },
      "cold-only": { type: "boolean", default: false },
      "time-scale": { type: "string" },
      "model-policy": { type: "string", default: "" },
      // The production run without the account's fair share (AI_FAIR_SHARE off): the comparison.
      "no-fair-share": { type: "boolean", default: false },
      // The fair-share run's backlog in messages (default 20,000; --quick 1,000): smaller where the full one takes too long.
      "fair-share-backlog": { type: "string" },
      // The cold section's agents, by label (1k, 10k, largest, past; default all): --cold-sizes 1k,10k.
      "cold-sizes": { type: "string" },
    },
  });
  const quick = values.quick;
  const loadOnly = values["load-only"];
  const ingestOnly = values["ingest-only"];
  const latencyOnly = values["latency-only"];
  const productionOnly = values["production-only"];
  const coldOnly = values["cold-only"];
  // A run of some sizes writes a file of its own (speed-cold-1k-10k.json), beside the full run's.
  const coldSizes = values["cold-sizes"]?.split(",").map((s) => s.trim());
  const timeScale = Number(values["time-scale"] ?? (quick ? "0.1" : "1"));
  if (!(timeScale > 0 && timeScale <= 1)) throw new Error(`--time-scale must be in (0, 1], got ${values["time-scale"]}`);
  const settings: SpeedSettings = { quick, ...(quick ? QUICK : FULL), floor: FLOOR };
  const info = runInfo("bench:speed", "bench/run-speed.ts");
  const progress = createProgress("speed");
  const result: SpeedResult = {
    schema: SPEED_SCHEMA,
    settings,
    ingest: { en: null, zh: null },
    singleOps: null,
    networks: [],
    isolation: null,
    load: null,
    storage: null,
    production: null,
    cold: null,
    goals: [],
    stalls: {},
    run: null,
  };

  const sizes = quick ? PRODUCTION_QUICK : PRODUCTION_FULL;
  const backlogArg = values["fair-share-backlog"];
  const backlog = backlogArg === undefined ? undefined : Number(backlogArg);
  if (backlog !== undefined && !(Number.isInteger(backlog) && backlog >= 10)) {
    throw new Error(`--fair-share-backlog must be a whole number of messages, at least 10, got ${backlogArg}`);
  }
  const production = async (): Promise<void> => {
    result.production = await productionBench(
      {
        timeScale,
        modelPolicy: values["model-policy"],
        fairShareOn: !values["no-fair-share"],
        ...sizes,
        fairShare: { ...sizes.fairShare, ...(backlog === undefined ? {} : { backlogMessages: backlog }) },
      },
      progress.update,
    );
    const p = result.production;
    progress.note(
      `production: ${p.ingest.messagesPerSecond.toFixed(1)} messages/s, ${p.calls.textPerRemember.toFixed(2)} text calls/remember, recall p95 ${p.recall.p95Ms?.toFixed(0)} ms`,
    );
    const f = p.fairShare;
    progress.note(
      `fair share${f.settings.fairShare ? "" : " (off)"}: steady remember-to-done p95 ${f.steadyAloneP95Ms?.toFixed(0)} ms alone, ${f.steadyP95Ms?.toFixed(0)} ms beside the backlog (×${f.p95Ratio?.toFixed(2)}); backlog ${f.backlogMessagesPerMinute.toFixed(0)} messages/min, account ${f.accountTextCallsPerMinute.toFixed(0)} of ${f.accountTextLimitPerMinute} text calls/min`,
    );
  };
  const cold = async (): Promise<void> => {
    const coldSettings = quick ? COLD_QUICK : COLD_FULL;
    result.cold = await coldBench(coldSizes ? selectColdSizes(coldSettings, coldSizes) : coldSettings, progress.update);
    const at10k = result.cold.runs.find((r) => r.size === "10k" && r.rttMs === 0 && r.call === "recall");
    if (at10k)
      progress.note(
        `cold: first recall at ${at10k.nodes} nodes p95 ${at10k.coldP95Ms?.toFixed(0)} ms (warm ${at10k.warmP95Ms?.toFixed(0)} ms)`,
      );
  };
  if (productionOnly) await production();
  else if (coldOnly) await cold();
  else
    await withBenchServer("speed", async (server) => {
      const http = new HttpClient(server.url);
      if (loadOnly) {
        result.load = await loadBench(http, settings.loadAgents, settings.loadMessagesPerAgent, settings.batch, progress.update);
        result.stalls = Object.fromEntries(http.stalls);
        return;
      }
      const emptyD1 = storageBytes(server.persistDir, "d1");
      const agents: AgentApi[] = [];
      for (const lang of latencyOnly ? [] : (["en", "zh"] as const)) {
        const agent = new AgentApi(http, `ingest-${lang}`);
        agents.push(agent);
        result.ingest[lang] = await ingestBench(agent, lang, settings.streamMessages, settings.batch, progress.update);
        progress.note(`ingestion (${lang}): ${result.ingest[lang]?.throughput.wall.toFixed(0)} messages/s`);
      }
      if (ingestOnly) {
        result.stalls = Object.fromEntries(http.stalls);
        return;
      }
      if (!latencyOnly) {
        const single = new AgentApi(http, "single-ops");
        agents.push(single);
        result.singleOps = await singleOpsBench(single, settings.singleOpSamples, progress.update);
        progress.note(`remember of ${result.singleOps.messages} messages: p50 ${result.singleOps.remember.ms?.p50.toFixed(0)} ms`);
      }
      const networks: { agent: AgentApi; network: Network }[] = [];
      for (const target of settings.networkTargets) {
        const agent = new AgentApi(http, `net-${target}`);
        agents.push(agent);
        networks.push({ agent, network: await buildNetwork(agent, target, progress.update) });
        progress.note(`agent of ${target} nodes built`);
      }
      result.storage = storageOf(server.persistDir, emptyD1, await Promise.all(agents.map((a) => a.idleStats())));

      for (const { agent, network } of networks) {
        const s = network.stats;
        const recall = await recallLatency(agent, settings.recallSamples, s.focus, progress.update);
        const search = await searchLatency(agent, settings.searchSamples, progress.update);
        const context = await contextLatency(agent, settings.searchSamples, progress.update);
        // Before compression changes the network: the filtered reads meet the same agent.
        const filtered = await filteredLatency(
          agent,
          { recall: settings.recallSamples, search: settings.searchSamples },
          s.focus,
          progress.update,
        );
        const compress = await compressBench(agent, s.nodes.total, settings.cycles, progress.update);
        const scanWait = await scanWaitBench(agent, settings.scanProbes, progress.update);
        result.networks.push({
          target: network.target,
          nodes: s.nodes.total,
          segments: s.nodes.segments,
          entities: s.nodes.entities,
          links: s.links.total,
          messages: network.messages,
          buildMs: network.buildMs,
          recall,
          search,
          context,
          filtered,
          compress,
          scanWait,
        });
        progress.note(`agent of ${s.nodes.total} nodes: recall p95 ${recall.latency.ms?.p95.toFixed(0)} ms`);
      }
      if (latencyOnly) {
        result.stalls = Object.fromEntries(http.stalls);
        return;
      }
      result.isolation = await isolationBench(http, settings.agents, settings.messagesPerAgent, settings.batch, progress.update);
      // Last: it fills the database with ~100k nodes, which would weigh on everything measured after it.
      result.load = await loadBench(http, settings.loadAgents, settings.loadMessagesPerAgent, settings.batch, progress.update);
      progress.note(`load: ${result.load.throughput.toFixed(0)} messages/s, ${result.load.accounting.lost} lost`);
      result.stalls = Object.fromEntries(http.stalls);
    });
  // Their own servers (other vars); after the local runs so their figures are not disturbed.
  if (!productionOnly && !loadOnly && !ingestOnly && !latencyOnly && !coldOnly) {
    await cold();
    await production();
  }
  progress.done();

  result.goals = speedGoals(result);
  const wallMs = performance.now() - started;
  result.run = { ...info, wallMs };
  const notes = [
    `Floor: ${FLOOR}.`,
    ...(Object.keys(result.stalls).length > 0
      ? [`Stall guard: re-sent reads ${JSON.stringify(result.stalls)} (see docs/BENCHMARKS.md; latencies include the stall)`]
      : []),
    ...(result.isolation?.leaks.slice(0, 20).map((l) => `LEAK: ${l}`) ?? []),
    ...(result.load?.problems.slice(0, 20).map((p) => `LOAD: ${p}`) ?? []),
  ];
  const tables = productionOnly
    ? speedTables(result).filter((t) => t.title.startsWith("production") || t.title === "Speed goals")
    : coldOnly
      ? speedTables(result).filter((t) => t.title.startsWith("cold path") || t.title === "Speed goals")
      : loadOnly
        ? speedTables(result).filter((t) => t.title.startsWith("load") || t.title === "Speed goals")
        : ingestOnly
          ? speedTables(result).filter((t) => t.title.startsWith("remember: acknowledgement"))
          : latencyOnly
            ? speedTables(result).filter((t) => LATENCY_TABLES.some((prefix) => t.title.startsWith(prefix)))
            : speedTables(result);
  console.log(notes.join("\n"));
  console.log();
  console.log(renderTables(tables, "text"));
  const outDir = path.join(ROOT, "bench", "results");
  mkdirSync(outDir, { recursive: true });
  const outFile = path.join(
    outDir,
    `speed${loadOnly ? "-load" : ingestOnly ? "-ingest" : latencyOnly ? "-latency" : coldOnly ? `-cold${coldSizes ? `-${coldSizes.join("-")}` : ""}` : productionOnly ? `-production${policyTag(values["model-policy"])}${values["no-fair-share"] ? "-no-fair-share" : ""}` : ""}${quick ? "-quick" : ""}.json`,
  );
  const json = JSON.stringify(result, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 1e4) / 1e4 : v), 2);
  writeFileSync(
    outFile,
    `${json}
`,
  );
  const partial = loadOnly || ingestOnly || latencyOnly || productionOnly || coldOnly;
  if (!quick && !partial) {
    writeDocSection(
      "speed",
      ["## Speed results", "", runInfoMarkdown(info, wallMs), "", ...notes.map((n) => `- ${n}`), "", renderTables(tables, "markdown")].join(
        "\n",
      ),
    );
  }
  process.stderr.write(
    `speed: ${(wallMs / 1000).toFixed(0)} s; wrote ${path.relative(ROOT, outFile)}${quick || partial ? "" : " and docs/BENCHMARKS.md"}\n`,
  );
  if (result.isolation && result.isolation.leaks.length > 0) {
    throw new Error(`cross-agent leakage: ${result.isolation.leaks.length} leak(s), first: ${result.isolation.leaks[0]}`);
  }
  if (result.load && result.load.problems.length > 0) {
    throw new Error(`load run: ${result.load.problems.length} problem(s), first: ${result.load.problems[0]}`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`\nbench:speed: ${describeError(e)}\n`);
  process.exit(1);
});
