/**
 * Latency of an update (PATCH memories/:id) and a delete (DELETE memories/:id, and with purge) on
 * an agent of ~10k nodes, against the floor (GET ping on the same agent, interleaved), driven over
 * HTTP against a local `wrangler dev --local` that this script starts and stops:
 *
 *   npx tsx bench/run-ops.ts [-- --nodes 10000 --samples 20]
 *
 * The agent is fed the English synthetic stream until it holds the target (speed/network.ts); then
 * auto_compress is turned off, so each sample times the operation itself and not a compression
 * cycle queued by an earlier one. Each sample targets a different segment, newest first (an update
 * supersedes it; a delete forgets it). Latency is client-side, from the request to the answer,
 * which comes when the operation's task is done. Writes bench/results/ops.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { ROOT } from "../scripts/local-server.mjs";
import { AgentApi } from "./driver/agent-api";
import { DEV_API_KEY, HttpClient } from "./driver/http";
import { createProgress } from "./driver/progress";
import { describeError, withBenchServer } from "./driver/server";
import { sampleWithFloor, warmUp, type LatencySummary } from "./speed/floor";
import { buildNetwork } from "./speed/network";

const { values } = parseArgs({
  options: { nodes: { type: "string", default: "10000" }, samples: { type: "string", default: "20" } },
});
const target = Number(values.nodes);
const samples = Number(values.samples);

const ListSchema = z.object({ items: z.array(z.object({ node_id: z.number(), content: z.string() })), next_cursor: z.string().nullable() });

async function timed(url: string, init: RequestInit): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { ...init, headers: { Authorization: `Bearer ${DEV_API_KEY}`, "Content-Type": "application/json" } });
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${body.slice(0, 300)}`);
  return ms;
}

interface OpsResult {
  target: number;
  nodes: number;
  links: number;
  buildMs: number;
  samples: number;
  update: LatencySummary;
  delete: LatencySummary;
  purge: LatencySummary;
}

async function main(): Promise<void> {
  const progress = createProgress("ops");
  const result = await withBenchServer("ops", async (server) => {
    const http = new HttpClient(server.url);
    const agent = new AgentApi(http, `ops-${target}`);
    const network = await buildNetwork(agent, target, (t) => progress.update(t));
    await agent.configure({ auto_compress: false });
    const stats = await agent.idleStats();
    const base = `${server.url}/v1/agents/${encodeURIComponent(agent.agentId)}`;
    const listing = ListSchema.parse(
      await (await fetch(`${base}/memories?kind=segment&limit=200`, { headers: { Authorization: `Bearer ${DEV_API_KEY}` } })).json(),
    );
    const ids = listing.items.map((i) => i.node_id);
    if (ids.length < 3 * samples + 3) throw new Error(`only ${ids.length} segments listed`);
    await warmUp(agent, 10);
    // One of each first (not counted): the object's code paths warm up.
    await timed(`${base}/memories/${ids[0]}`, { method: "PATCH", body: JSON.stringify({ content: "Warm-up update." }) });
    await timed(`${base}/memories/${ids[1]}`, { method: "DELETE" });
    await timed(`${base}/memories/${ids[2]}?purge=true`, { method: "DELETE" });
    const pick = (i: number) => ids[3 + i] ?? 0;
    const update = await sampleWithFloor(
      agent,
      samples,
      (i) => timed(`${base}/memories/${pick(i)}`, { method: "PATCH", body: JSON.stringify({ content: `Updated memory number ${i}.` }) }),
      (d, t) => progress.update(`update ${d}/${t}`),
    );
    const forget = await sampleWithFloor(
      agent,
      samples,
      (i) => timed(`${base}/memories/${pick(samples + i)}`, { method: "DELETE" }),
      (d, t) => progress.update(`delete ${d}/${t}`),
    );
    const purge = await sampleWithFloor(
      agent,
      samples,
      (i) => timed(`${base}/memories/${pick(2 * samples + i)}?purge=true`, { method: "DELETE" }),
      (d, t) => progress.update(`purge ${d}/${t}`),
    );
    const out: OpsResult = {
      target,
      nodes: stats.nodes.total,
      links: stats.links.total,
      buildMs: network.buildMs,
      samples,
      update: update.summary,
      delete: forget.summary,
      purge: purge.summary,
    };
    return out;
  });
  progress.done();
  const dir = path.join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "ops.json"), `${JSON.stringify(result, null, 2)}\n`);
  const row = (name: string, s: LatencySummary) =>
    `${name}: p50 ${s.ms?.p50.toFixed(1)} ms (floor ${s.floorMs?.p50.toFixed(1)} ms, ×${s.ratio.p50?.toFixed(2)}), p95 ${s.ms?.p95.toFixed(1)} ms (×${s.ratio.p95?.toFixed(2)})`;
  console.log(
    `agent: ${result.nodes} nodes, ${result.links} links (built in ${(result.buildMs / 1000).toFixed(1)} s), ${samples} samples each`,
  );
  for (const [name, s] of [
    ["update", result.update],
    ["delete", result.delete],
    ["purge", result.purge],
  ] as const)
    console.log(row(name, s));
}

main().catch((e: unknown) => {
  console.error(describeError(e));
  process.exit(1);
});
