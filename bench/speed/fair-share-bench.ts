/**
 * Fair share of the account's model budget (issue 37 item 4; docs/design.md, "Fair share of the
 * model budget"), in the production-shaped run: the Workers AI provider against the simulated
 * service with the account's limits (ai-simulator.ts), several tenants on one deployment.
 *
 *   1. alone: `steadyTenants` tenants (one agent each, the default model policy) remember
 *      `batch` messages every `rememberEveryMs`, for `phaseMs`: the remember-to-done time of each
 *      (from sending the remember to its task done) gives steadyAloneP95Ms;
 *   2. with a backlog: one more tenant queues `backlogMessages` over `backlogAgents` agents whose
 *      model_policy sends every operation to Workers AI (issue 34 finding 15: a tenant can make
 *      text generation the bound), then the steady tenants remember as in 1 while it drains:
 *      steadyP95Ms; the backlog's messages remembered per minute and the account's text calls per
 *      minute over the same time show the backlog still moving at the account's limit.
 *
 * Times are wall times in real seconds for the steady tenants' pace (it does not shrink with the
 * time scale: their work is the Worker's own CPU), reported in simulated milliseconds (÷ time
 * scale) like the rest of the production run.
 */
import { LOCAL_OPERATOR_SECRET } from "../../scripts/local-server.mjs";
import { AgentApi } from "../driver/agent-api";
import { HttpClient } from "../driver/http";
import { counter } from "../driver/schemas";
import { percentiles } from "../lib/aggregate";
import type { AiSimulator, Counts } from "./ai-simulator";
import { chatStream } from "./streams";

export interface FairShareSettings {
  steadyTenants: number;
  /** Messages per remember. */
  batch: number;
  /** One remember per steady tenant every this many real ms (10 messages/s: 10 every 1,000). */
  rememberEveryMs: number;
  /** Each steady phase, real ms. */
  phaseMs: number;
  backlogMessages: number;
  backlogAgents: number;
  /** Backlog remembers sent at once while it is queued. */
  backlogInFlight: number;
}

export const FAIR_SHARE_FULL: FairShareSettings = {
  steadyTenants: 4,
  batch: 10,
  rememberEveryMs: 1_000,
  phaseMs: 90_000,
  backlogMessages: 20_000,
  backlogAgents: 10,
  backlogInFlight: 16,
};

/** A smoke check: the harness runs, the figures mean little. */
export const FAIR_SHARE_QUICK: FairShareSettings = {
  steadyTenants: 4,
  batch: 10,
  rememberEveryMs: 1_000,
  phaseMs: 12_000,
  backlogMessages: 1_000,
  backlogAgents: 4,
  backlogInFlight: 8,
};

export interface FairShareResult {
  settings: FairShareSettings & { fairShare: boolean; backlogPolicy: string };
  /** Remember-to-done of the steady tenants without the backlog, and with it (simulated ms). */
  steadyAloneP95Ms: number | null;
  steadyAloneP50Ms: number | null;
  steadyP95Ms: number | null;
  steadyP50Ms: number | null;
  steadyAloneSamples: number;
  steadySamples: number;
  /** steadyP95Ms ÷ steadyAloneP95Ms (the goal: at most 1.5). */
  p95Ratio: number | null;
  /** The backlog's messages remembered per simulated minute while the steady tenants ran beside it. */
  backlogMessagesPerMinute: number;
  backlogMessagesDone: number;
  /** Text-generation calls the simulated account served per simulated minute over the same time, and its limit. */
  accountTextCallsPerMinute: number;
  accountTextLimitPerMinute: number;
  /** 429s the simulated account answered during the run (none when the coordinator keeps within the limit). */
  refused429: number;
  backlogFallbacks: number;
  steadyFallbacks: number;
}

const ALL_REMOTE = { extraction: "workers-ai", compression: "workers-ai", conflicts: "workers-ai", summaries: "workers-ai" } as const;

async function tenantKey(baseUrl: string, tenant: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/admin/tenants/${tenant}/keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${LOCAL_OPERATOR_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ scopes: "write" }),
  });
  if (res.status !== 201) throw new Error(`creating a key for ${tenant}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function textCalls(counts: Counts): { calls: number; refused: number } {
  let calls = 0;
  let refused = 0;
  for (const [op, c] of Object.entries(counts)) {
    if (op !== "embedding") calls += c.calls;
    refused += c.refused;
  }
  return { calls, refused };
}

/** Each steady tenant remembers on its pace for `phaseMs`; resolves with every remember-to-done time (real ms). */
async function steadyPhase(agents: readonly AgentApi[], settings: FairShareSettings, seed: number): Promise<number[]> {
  const latencies: number[] = [];
  const waits: Promise<void>[] = [];
  const started = performance.now();
  await Promise.all(
    agents.map(async (agent, a) => {
      const stream = chatStream(
        "en",
        Math.ceil(settings.phaseMs / settings.rememberEveryMs) * settings.batch,
        seed + a,
        `${agent.agentId}-${seed}`,
      );
      for (let i = 0; performance.now() - started < settings.phaseMs && i < stream.length; i += settings.batch) {
        const tick = started + (i / settings.batch) * settings.rememberEveryMs;
        await sleep(Math.max(0, tick - performance.now()));
        const sent = performance.now();
        const { value: taskId } = await agent.remember(stream.slice(i, i + settings.batch));
        waits.push(
          agent.finishedTask(taskId).then((task) => {
            if (task.status !== "done") throw new Error(`${agent.agentId}: remember ${taskId} ${task.status}`);
            latencies.push(performance.now() - sent);
          }),
        );
      }
    }),
  );
  await Promise.all(waits);
  return latencies;
}

async function backlogDone(agents: readonly AgentApi[], batch: number): Promise<{ messages: number; fallbacks: number }> {
  const stats = await Promise.all(agents.map((a) => a.stats()));
  return {
    messages: stats.reduce((n, s) => n + counter(s, "remembers"), 0) * batch,
    fallbacks: stats.reduce((n, s) => n + counter(s, "model_fallbacks"), 0),
  };
}

export async function fairShareBench(
  baseUrl: string,
  sim: AiSimulator,
  settings: FairShareSettings,
  options: { timeScale: number; fairShare: boolean; accountTextPerMinute: number },
  step: (text: string) => void,
): Promise<FairShareResult> {
  const scale = options.timeScale;
  const refusedBefore = textCalls(sim.snapshot()).refused;
  const steady = await Promise.all(
    Array.from({ length: settings.steadyTenants }, async (_, t) => {
      const http = new HttpClient(baseUrl, await tenantKey(baseUrl, `fair-steady-${t}`));
      return new AgentApi(http, `steady-${t}`);
    }),
  );
  const backlogHttp = new HttpClient(baseUrl, await tenantKey(baseUrl, "fair-backlog"));
  const backlog = Array.from({ length: settings.backlogAgents }, (_, i) => new AgentApi(backlogHttp, `backlog-${i}`));

  // Warm: each steady agent's first remember (its object's start, the first model calls) is not measured.
  await Promise.all(
    steady.map(async (a) => a.finishedTask((await a.remember(chatStream("en", settings.batch, 7, `${a.agentId}-warm`))).value)),
  );

  step("fair share: the steady tenants alone");
  const alone = await steadyPhase(steady, settings, 100);

  step(`fair share: queueing the backlog (${settings.backlogMessages} messages)`);
  await Promise.all(backlog.map((a) => a.setModelPolicy(ALL_REMOTE)));
  const perAgent = Math.ceil(settings.backlogMessages / settings.backlogAgents);
  const sends = backlog.flatMap((agent, a) => {
    const stream = chatStream("en", perAgent, 500 + a, agent.agentId);
    return Array.from(
      { length: Math.ceil(stream.length / settings.batch) },
      (_, r) => () => agent.remember(stream.slice(r * settings.batch, (r + 1) * settings.batch)),
    );
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: settings.backlogInFlight }, async () => {
      while (next < sends.length) await sends[next++]?.();
    }),
  );

  step("fair share: the steady tenants beside the backlog");
  const callsBefore = textCalls(sim.snapshot());
  const doneBefore = await backlogDone(backlog, settings.batch);
  const phaseStart = performance.now();
  const beside = await steadyPhase(steady, settings, 200);
  const phaseMs = (performance.now() - phaseStart) / scale;
  const doneAfter = await backlogDone(backlog, settings.batch);
  const callsAfter = textCalls(sim.snapshot());
  const steadyStats = await Promise.all(steady.map((a) => a.stats()));

  const a = percentiles(alone.map((ms) => ms / scale));
  const b = percentiles(beside.map((ms) => ms / scale));
  return {
    settings: { ...settings, fairShare: options.fairShare, backlogPolicy: "every operation on Workers AI" },
    steadyAloneP95Ms: a?.p95 ?? null,
    steadyAloneP50Ms: a?.p50 ?? null,
    steadyP95Ms: b?.p95 ?? null,
    steadyP50Ms: b?.p50 ?? null,
    steadyAloneSamples: alone.length,
    steadySamples: beside.length,
    p95Ratio: a && b ? b.p95 / a.p95 : null,
    backlogMessagesPerMinute: (doneAfter.messages - doneBefore.messages) / (phaseMs / 60_000),
    backlogMessagesDone: doneAfter.messages,
    accountTextCallsPerMinute: (callsAfter.calls - callsBefore.calls) / (phaseMs / 60_000),
    accountTextLimitPerMinute: options.accountTextPerMinute,
    refused429: callsAfter.refused - refusedBefore,
    backlogFallbacks: doneAfter.fallbacks,
    steadyFallbacks: steadyStats.reduce((n, s) => n + counter(s, "model_fallbacks"), 0),
  };
}
