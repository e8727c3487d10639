/**
 * Nothing accepted is lost (docs/design.md §15), against a real local server killed with SIGKILL:
 *
 *   npm run test:faults      (FAULTS_KEEP=1 keeps the persist directories)
 *   npm run test:faults -- --model simulated
 *
 * --model simulated: both servers use the Workers AI provider against the benchmark's simulated
 * service (bench/speed/ai-simulator.ts, time scaled ×0.05), so remembers digest queued remembers
 * ahead of their turn (src/engine/digest-ahead.ts) and the kills land during pipelined model work.
 *
 * A faulty run sends remembers (with message ids), parameter changes, compression requests, pins
 * and unpins, and agent deletions to several agents over HTTP, and kills the server's whole process tree with
 * SIGKILL at chosen moments: after N accepted writes while every agent is busy, while compression
 * passes run, right after a DELETE was accepted with writes queued behind it, while bursts of
 * remembers are queued, and (sessionPhase) right after a DELETE of one session was accepted behind
 * remembers into the same sessions and just as memories expire with remembers in flight. Each time it restarts the server on the same persist directory, sends
 * again (same Idempotency-Key) every request whose answer the kill took, and goes on.
 *
 * A twin run then replays each agent's requests, in the same order and with the same keys, on an
 * uninterrupted server, one at a time (waiting for the queue to be idle after each). Every agent of
 * the faulty run must equal its twin: nodes (ids, kinds, contents, provenance, scan counts), links
 * (ends, relations, strengths), focus, parameters, stats counters, vectors, and the search and
 * recall answers (network.ts, compare.ts). Each agent must also pass checks that need no twin:
 * every accepted task done, every accepted message held by exactly one remember and found exactly
 * once by search, nothing of before a deletion left, one vector per node.
 *
 * The sessions agents are not replayed (an expiry is a time, not a request): every message outside
 * the deleted session's earlier remembers and the expired ones must be held by a node, and nothing
 * of the others may be held or found (checkNetwork, checkScoped).
 *
 * The object's copy of the network (its snapshot and journal, from which a wake loads the graph)
 * is compared with D1 after the kills of every phase, once the queues are idle, and a fifth phase
 * kills while the objects load their graphs and around snapshot writes (wake-phase.ts).
 *
 * Timing independence: the same 200 remembers sent as a burst on the uninterrupted server must end
 * in the network the twin built one by one (and the faulty run, burst and kills, too).
 *
 * Bugs this suite found have probes (known-bugs.ts) that run in the same run: a probe that shows its
 * bug again, or cannot build what it reads, fails the run with a message naming the bug (the twin
 * comparison would fail too, with a less direct message).
 *
 * Exits 1 on any failed check, on any mismatch with the twin (see above), on a kill that did not
 * land where its scenario needs it, and on any error.
 */
import { ROOT } from "../../scripts/local-server.mjs";
import { buildSnapshot } from "../../bench/driver/snapshot";
import { AiSimulator } from "../../bench/speed/ai-simulator";
import { renderText } from "../../bench/lib/table";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_PARAMS } from "../../src/config/params";
import { Agent, type Config, type Stats } from "./api";
import { FaultClient } from "./client";
import { checkNetwork, diffNetworks, listed, type Accounting } from "./compare";
import { buildProbe, judgeProbe, PROBE_AGENT, readProbe, type ProbeVerdict } from "./known-bugs";
import { readNetwork, type NetworkSnapshot } from "./network";
import { KillableServer, ownDir, releaseDir } from "./server";
import type { Message } from "./api";
import { BUILD_AGENTS, checkCopies, wakePhase } from "./wake-phase";
import { AgentLog, chunks, MessageSource, mixedScript, send, type Step } from "./workload";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s`;
const say = (text: string) => process.stderr.write(`[faults ${elapsed()}] ${text}\n`);

interface KillRecord {
  phase: string;
  trigger: string;
  acceptedBefore: number;
  restartMs: number;
  /** What shows the kill landed where the scenario needs it. */
  evidence: string;
}

interface Group {
  name: string;
  agents: string[];
}

/** The PUT config sent right behind the DELETE: it configures the fresh agent (defaults otherwise). */
const AFTER_DELETE: Config = { focus_limit: 3, decay_rate: 0.9, link_initial_strength: 0.4 };

/** The parameters of a deleted agent that took AFTER_DELETE after its deletion, not the old ones. */
function checkFreshConfig(s: NetworkSnapshot): string[] {
  const expected: Config = { ...DEFAULT_PARAMS, ...AFTER_DELETE };
  return Object.entries(expected).flatMap(([key, value]) =>
    JSON.stringify(s.config[key]) === JSON.stringify(value)
      ? []
      : [
          `config ${key} is ${JSON.stringify(s.config[key])}, expected ${JSON.stringify(value)} (defaults of a fresh agent, then the PUT accepted after the DELETE)`,
        ],
  );
}

/** The sessions phase's agents: checked on their own, not replayed by the twin. */
const isScoped = (id: string) => id.startsWith("sess-");

/** Total tasks in an agent's table (queued, running, done, failed). */
const totalTasks = (s: Stats) => s.queue.queued + s.queue.running + s.queue.done + s.queue.failed;

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

async function until(what: string, timeoutMs: number, f: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

class FaultyRun {
  readonly client: FaultClient;
  readonly logs = new Map<string, AgentLog>();
  readonly kills: KillRecord[] = [];
  readonly failures: string[] = [];
  accepted = 0;
  private triggers: { at: number; phase: string }[] = [];
  private killing: Promise<void> = Promise.resolve();

  constructor(readonly server: KillableServer) {
    this.client = new FaultClient(server);
  }

  log(id: string): AgentLog {
    let log = this.logs.get(id);
    if (!log) {
      log = new AgentLog(new Agent(this.client, id), () => this.onAccepted());
      this.logs.set(id, log);
    }
    return log;
  }

  /** Kill when the accepted writes reach each of `counts` (writes keep going meanwhile). */
  killAfter(phase: string, counts: readonly number[]): void {
    this.triggers = counts.map((at) => ({ at, phase }));
  }

  private onAccepted(): void {
    this.accepted += 1;
    const due = this.triggers.filter((t) => t.at <= this.accepted);
    if (due.length === 0) return;
    this.triggers = this.triggers.filter((t) => t.at > this.accepted);
    const phase = due[0]?.phase ?? "";
    const trigger = `after ${this.accepted} accepted writes`;
    // What was queued when it struck (one stats read per agent, in parallel, just before the kill).
    const record = this.kill(phase, trigger, "", async () => {
      const logs = [...this.logs.values()];
      const queued = await Promise.all(logs.map(async (l) => ({ l, q: (await l.agent.stats()).queue.queued })));
      const busy = queued.filter((x) => x.q > 0);
      const burst = queued.find((x) => x.l.id === "burst-200");
      return (
        `${busy.reduce((a, x) => a + x.q, 0)} tasks queued in ${busy.length} of ${logs.length} agents` +
        (burst ? `; burst-200: ${burst.l.accepted} of 200 remembers accepted, ${burst.q} tasks queued` : "")
      );
    });
    record.catch((e: unknown) => {
      process.stderr.write(
        `\ntest:faults: the kill and restart ${trigger} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      process.exit(1);
    });
  }

  /**
   * SIGKILL the server's process group, restart it on the same persist directory. `look`, if
   * given, is read just before the kill and becomes the kill's evidence.
   */
  kill(phase: string, trigger: string, evidence: string, look?: () => Promise<string>): Promise<KillRecord> {
    const record: KillRecord = { phase, trigger, acceptedBefore: this.accepted, restartMs: 0, evidence };
    const run = this.killing.then(async () => {
      if (look) record.evidence = await look();
      say(`kill ${this.kills.length + 1}: ${phase}, ${trigger}`);
      await this.server.kill();
      await this.server.restart();
      record.restartMs = this.server.restarts[this.server.restarts.length - 1] ?? 0;
      this.kills.push(record);
    });
    this.killing = run;
    return run.then(() => record);
  }

  /** Waits for any kill under way to finish (its restart included). */
  settled(): Promise<void> {
    return this.killing;
  }
}

async function runAll(logs: readonly AgentLog[], scripts: readonly Step[][]): Promise<void> {
  await Promise.all(
    logs.map(async (log, i) => {
      for (const step of scripts[i] ?? []) await log.run(step);
    }),
  );
}

/** Phase 1: every agent written at once; kills after 100, 220 and 340 accepted writes. */
async function busyPhase(run: FaultyRun, source: MessageSource): Promise<void> {
  const mix = ["mix-0", "mix-1", "mix-2", "mix-3"].map((id) => run.log(id));
  const mixScripts = [
    mixedScript(source, "mix-0", 11, 40, "en"),
    mixedScript(source, "mix-1", 12, 40, "zh"),
    mixedScript(source, "mix-2", 13, 40, "en"),
    mixedScript(source, "mix-3", 14, 40, "en", 20),
  ];
  const burst = run.log("burst-200");
  const burstScript: Step[] = chunks(source.messages("en", 399, 21, "burst-200"), (i) => 1 + (i % 3)).map((messages) => ({
    op: "remember",
    messages,
  }));
  if (burstScript.length !== 200) throw new Error(`burst script has ${burstScript.length} remembers`);
  const passes = [run.log("pass-0"), run.log("pass-1")];
  const passScripts: Step[][] = (["en", "zh"] as const).map((lang, i) => [
    { op: "config", patch: { auto_compress: false } },
    ...chunks(source.messages(lang, 350, 31 + i, `pass-${i}`), () => 10).map((messages): Step => ({ op: "remember", messages })),
  ]);
  const dels = [run.log("del-0"), run.log("del-1")];
  const delScripts: Step[][] = [0, 1].map((i) =>
    chunks(source.messages("en", 30, 41 + i, `del-${i}`), () => 5).map((messages): Step => ({ op: "remember", messages })),
  );
  run.killAfter("busy", [100, 220, 340]);
  say(`phase 1: ${mix.length + 1 + passes.length + dels.length} agents written at once`);
  await runAll([...mix, burst, ...passes, ...dels], [...mixScripts, burstScript, ...passScripts, ...delScripts]);
  await run.settled();
  await Promise.all([...run.logs.values()].map((log) => log.agent.idle()));
  say(`copies after the busy phase's kills: ${await checkCopies(run, "after the busy phase")}`);
}

/** Phase 2: compression passes on two ~380-node agents, killed while they run. */
async function passPhase(run: FaultyRun): Promise<void> {
  const passes = [run.log("pass-0"), run.log("pass-1")];
  say("phase 2: kills inside compression passes");
  for (const log of passes) {
    await log.run({ op: "config", patch: { decay_rate: 0.6 } });
    await log.run({ op: "compress", cycles: 2 });
  }
  const delays = [60, 150, 20];
  for (const [round, delay] of delays.entries()) {
    const leaders = await Promise.all(passes.map(async (log) => (await log.run({ op: "compress", cycles: 3 })).taskIds[0] ?? ""));
    await sleep(delay);
    const record = await run.kill("compression", `${delay} ms after two passes of 3 cycles were queued`, "");
    const found = await Promise.all(
      passes.map(async (log, i) => {
        await log.agent.idle();
        const task = await log.agent.task(leaders[i] ?? "");
        const slices = typeof task?.result?.slices === "number" ? task.result.slices : 0;
        return { id: log.id, attempts: task?.attempts ?? 0, slices, status: task?.status ?? "missing" };
      }),
    );
    const interrupted = found.filter((f) => f.attempts >= 2);
    record.evidence = found.map((f) => `${f.id}: ${f.status}, attempts ${f.attempts}, slices ${f.slices}`).join("; ");
    say(`copies after the kill: ${await checkCopies(run, `after the compression kill of round ${round + 1}`)}`);
    if (interrupted.length > 0) return;
    say(`round ${round + 1}: no pass was running at the kill (${record.evidence}); again`);
  }
  run.failures.push("no kill landed inside a compression pass in 3 rounds: the scenario did not test what it should");
}

/**
 * Phase 3: DELETE accepted with writes queued behind it. The agent first turns automatic
 * compression off, so that nothing but its requests adds tasks: the DELETE (and the PUT config
 * after it) is known to be queued when the agent's task count moves.
 */
async function deletePhase(run: FaultyRun, source: MessageSource, id: string, confirmPut: boolean): Promise<void> {
  const log = run.log(id);
  const agent = log.agent;
  const seed = id === "del-0" ? 51 : 52;
  const messages = source.messages("en", 600 + 3 * 4 + 3 * 4, seed, `${id}-b`);
  const backlog = chunks(messages.slice(0, 600), () => 10);
  const behind = chunks(messages.slice(600, 612), () => 4);
  const after = chunks(messages.slice(612), () => 4);
  await log.run({ op: "config", patch: { auto_compress: false } });
  await agent.idle();
  // A backlog of 60 remembers sent 16 at a time: accepted between two tasks each, they queue up
  // faster than they run (sent one after the other, each waits for the task before it). Their
  // order among themselves is left to chance: the DELETE behind them purges all of them.
  await pool(backlog, 16, async (batch) => {
    await log.run({ op: "remember", messages: batch });
  });
  const before = totalTasks(await agent.stats());
  const del = log.start({ op: "delete" });
  let total = before;
  let queuedAtAccept = 0;
  await until(`${id}: the DELETE is queued`, 30_000, async () => {
    const stats = await agent.stats();
    total = totalTasks(stats);
    queuedAtAccept = stats.queue.queued;
    return total !== before;
  });
  const pendingAtAccept = total === before + 1;
  const beforePut = total;
  const put = log.start({ op: "config", patch: AFTER_DELETE });
  let evidence: string;
  if (confirmPut) {
    // Queued: the count moved by one (deletion pending), or only the PUT is left (deletion done).
    await until(`${id}: the PUT config is queued`, 30_000, async () => {
      total = totalTasks(await agent.stats());
      return total === beforePut + 1 || (beforePut > 1 && total === 1);
    });
    for (const batch of behind) await log.run({ op: "remember", messages: batch });
    const now = await agent.stats();
    const pendingAtKill = totalTasks(now) > before;
    evidence = `DELETE accepted${pendingAtAccept ? ` with ${queuedAtAccept} tasks queued` : " (and run before seen)"}; PUT config and 3 remembers accepted after it; deletion ${pendingAtKill ? `still pending at the kill (${now.queue.queued} tasks queued)` : "already run at the kill"}`;
    await run.kill("delete", `${id}: after the DELETE, a PUT config and 3 remembers were accepted`, evidence);
  } else {
    evidence = `DELETE accepted${pendingAtAccept ? ` with ${queuedAtAccept} tasks queued` : " (and run before seen)"}; PUT config sent, not known to be accepted, at the kill`;
    await run.kill("delete", `${id}: right after a PUT config was sent behind an accepted DELETE`, evidence);
  }
  await del.answer;
  await put.answer;
  if (!confirmPut) for (const batch of behind) await log.run({ op: "remember", messages: batch });
  for (const batch of after) await log.run({ op: "remember", messages: batch });
  await log.run({ op: "compress", cycles: 2 });
  await agent.idle();
  say(`copies after the deletion's kill: ${await checkCopies(run, `after the kill behind ${id}'s DELETE`)}`);
}

/** Sessions of the sessions phase; the one deleted; how long after they are sent expiring remembers expire. */
const SESSIONS = ["s0", "s1", "s2"];
const DELETED_SESSION = "s1";
const EXPIRY_MS = 10_000;

/**
 * Phase 4: sessions and expiry (docs/design.md, "Sessions as a resource", "Expiry is a purge at a
 * time set in advance"). An agent (automatic compression off: nothing but its requests and its
 * expiries removes a memory) is written into three sessions in turn, every fourth remember
 * expiring EXPIRY_MS after the phase starts. A DELETE of session s1 is accepted behind a backlog of
 * remembers and the server is killed right after; remembers go on into the same sessions (s1's
 * are kept: accepted after the deletion); once the expiry is due the server is killed again with
 * remembers in flight. Not replayed by the twin (the expiry is a time, not a request): its checks
 * are its own (checkScoped).
 */
async function sessionPhase(run: FaultyRun, source: MessageSource, id: string, seed: number): Promise<void> {
  const log = run.log(id);
  const agent = log.agent;
  const batches = chunks(source.messages("en", 200, seed, `${id}-m`), () => 4);
  const step = (i: number, messages: Message[], expiresAt?: number): Step => ({
    op: "remember",
    messages,
    session_id: SESSIONS[i % SESSIONS.length] ?? "s0",
    ...(expiresAt !== undefined && i % 4 === 3 ? { expires_at: expiresAt } : {}),
  });
  await log.run({ op: "config", patch: { auto_compress: false } });
  await agent.idle();
  // A backlog queued faster than it runs (every fourth expiring soon), then the DELETE behind it.
  const first = Date.now() + EXPIRY_MS;
  await pool([...batches.slice(0, 24).entries()], 8, async ([i, messages]) => {
    await log.run(step(i, messages, first));
  });
  const before = totalTasks(await agent.stats());
  const del = log.start({ op: "deleteSession", session_id: DELETED_SESSION });
  let queued = 0;
  await until(`${id}: the DELETE of ${DELETED_SESSION} is queued`, 30_000, async () => {
    const stats = await agent.stats();
    queued = stats.queue.queued;
    return totalTasks(stats) !== before;
  });
  await run.kill("sessions", `${id}: right after DELETE sessions/${DELETED_SESSION} was accepted`, `${queued} tasks queued at the DELETE`);
  await del.answer;
  // More into the same sessions (s1's kept), every fourth expiring EXPIRY_MS from now; killed just
  // as that expiry falls due, with remembers into the same sessions in flight.
  const second = Date.now() + EXPIRY_MS;
  await pool([...batches.slice(24, 40).entries()], 8, async ([i, messages]) => {
    await log.run(step(24 + i, messages, second));
  });
  await sleep(Math.max(0, second - Date.now()) + 30);
  const inFlight = batches.slice(40, 44).map((messages, i) => log.start(step(40 + i, messages)));
  const late = Date.now() - second;
  const expired = (await agent.stats()).counters.memories_expired ?? 0;
  await run.kill(
    "expiry",
    `${id}: ${late} ms after an expiry fell due, 4 remembers in flight`,
    `${expired} memories expired before the kill`,
  );
  for (const f of inFlight) await f.answer;
  for (const [i, messages] of batches.slice(44).entries()) await log.run(step(44 + i, messages));
  await agent.idle();
}

/**
 * What must hold of a sessions agent: live (its messages outside the deleted session's remembers
 * accepted before the DELETE, and not expired) and dead (the others) for checkNetwork, and every
 * live message found by search (nothing else forgets in this agent).
 */
function scopedAccounting(log: AgentLog, codeOf: ReadonlyMap<string, string>, now: number): Accounting {
  const live = new Map<string, string>();
  const dead = new Map<string, string>();
  let deletedAt = Infinity;
  let remembers = 0;
  for (const [i, { step }] of log.steps.entries()) {
    if (step.op === "deleteSession") deletedAt = Math.min(deletedAt, i);
    if (step.op !== "remember") continue;
    remembers += 1;
    const gone = (step.session_id === DELETED_SESSION && i < deletedAt) || (step.expires_at !== undefined && step.expires_at <= now);
    for (const m of step.messages) (gone ? dead : live).set(m.id, codeOf.get(m.id) ?? "");
  }
  return { live, dead, remembers };
}

function checkScoped(s: NetworkSnapshot, acc: Accounting): string[] {
  const out: string[] = [];
  // Held: a node carries the message (search finds it while current: checkNetwork; a later
  // memory may have superseded it, which is a write, not a loss).
  const held = new Set(s.nodes.flatMap((n) => n.source_message_ids));
  for (const [id, code] of acc.live) if (!held.has(id)) out.push(`message ${id} (${code}) lost: no node holds it`);
  if (acc.dead.size === 0) out.push("nothing was deleted or expired: the scenario did not test what it should");
  return out;
}

/** Every accepted task is done (or gone with a later deletion of the agent, and only then). */
async function checkTasks(log: AgentLog): Promise<string[]> {
  const out: string[] = [];
  const lastDelete = log.steps.reduce((last, s, i) => (s.step.op === "delete" ? i : last), -1);
  const tasks = log.steps.flatMap((logged, i) => logged.taskIds.map((taskId) => ({ logged, i, taskId })));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const item = tasks[next++];
      if (!item) continue;
      const { logged, i, taskId } = item;
      const task = await log.agent.task(taskId);
      if (i < lastDelete) {
        if (task !== null) out.push(`task ${taskId} (step ${i}) outlived the deletion at step ${lastDelete}`);
      } else if (task === null) out.push(`task ${taskId} (step ${i}, ${logged.step.op}) accepted but unknown to the agent: LOST`);
      else if (task.status !== "done") out.push(`task ${taskId} (step ${i}, ${logged.step.op}) ${task.status}: ${task.error ?? ""}`);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return out;
}

/** Writes whose answer a kill took: queued before the kill (answer lost) or by the retry. */
async function lostAnswers(log: AgentLog, killedAt: readonly number[]): Promise<{ before: number; byRetry: number; unknown: number }> {
  const out = { before: 0, byRetry: 0, unknown: 0 };
  for (const logged of log.steps) {
    if (logged.lostIn.length === 0) continue;
    const taskId = logged.taskIds[0];
    const task = taskId === undefined ? null : await log.agent.task(taskId);
    const kill = killedAt[logged.lostIn[0] ?? -1];
    if (!task || kill === undefined) out.unknown += 1;
    else if (task.created_at <= kill) out.before += 1;
    else out.byRetry += 1;
  }
  return out;
}

function accounting(log: AgentLog, codeOf: ReadonlyMap<string, string>): Accounting {
  const live = new Map<string, string>();
  const dead = new Map<string, string>();
  let remembers = 0;
  for (const { step } of log.steps) {
    if (step.op === "delete") {
      for (const [id, code] of live) dead.set(id, code);
      live.clear();
      remembers = 0;
    } else if (step.op === "remember") {
      remembers += 1;
      for (const m of step.messages) live.set(m.id, codeOf.get(m.id) ?? "");
    }
  }
  for (const id of live.keys()) dead.delete(id);
  return { live, dead, remembers };
}

/**
 * The code words searched on an agent: every message sent since its last deletion, and every
 * 20th of those sent before it (they must all be gone; a sample keeps the reading short).
 */
function codesOf(log: AgentLog, codeOf: ReadonlyMap<string, string>): string[] {
  const acc = isScoped(log.id) ? scopedAccounting(log, codeOf, Date.now()) : accounting(log, codeOf);
  const dead = [...acc.dead.values()].filter((_c, i) => i % 20 === 0);
  return [...new Set([...acc.live.values(), ...dead])].filter((c) => c !== "");
}

async function readAll(agents: readonly Agent[], codes: (id: string) => string[]): Promise<Map<string, NetworkSnapshot>> {
  const out = new Map<string, NetworkSnapshot>();
  // Three agents at a time, each with several reads in flight.
  let next = 0;
  await Promise.all(
    [0, 1, 2].map(async () => {
      while (next < agents.length) {
        const agent = agents[next++];
        if (!agent) continue;
        const t = performance.now();
        const snapshot = await readNetwork(agent, codes(agent.id));
        say(
          `read ${agent.id}: ${snapshot.nodes.length} nodes, ${Object.keys(snapshot.codeHits).length} searches, ${((performance.now() - t) / 1000).toFixed(1)} s`,
        );
        out.set(agent.id, snapshot);
      }
    }),
  );
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: "string", default: "local" } } });
  if (values.model !== "local" && values.model !== "simulated") throw new Error(`--model is local or simulated, got ${values.model}`);
  const simulator = values.model === "simulated" ? new AiSimulator({ timeScale: 0.05, seed: 24 }) : undefined;
  const vars: Record<string, string> = simulator
    ? {
        MODEL_PROVIDER: "workers-ai",
        AI_TEXT_MODEL: "@cf/google/gemma-4-26b-a4b-it",
        AI_SIMULATOR_URL: await simulator.start(),
        AI_RATE_WINDOW_MS: String(simulator.windowMs),
        // Conflict verdicts are local by default; the model's, asked ahead of their turn, stay covered here.
        MODEL_POLICY: "conflicts=workers-ai",
      }
    : {};
  try {
    await runSuite(vars);
  } finally {
    await simulator?.stop();
  }
}

async function runSuite(vars: Readonly<Record<string, string>>): Promise<void> {
  const buildDir = path.join(ROOT, ".wrangler", `faults-build-${process.pid}`);
  ownDir(buildDir);
  say("bundling the Worker (frozen for both runs)");
  const config = buildSnapshot(buildDir);
  const source = new MessageSource();
  const groups: Group[] = [
    { name: "after N writes (mixed writes, 1 deletion)", agents: ["mix-0", "mix-1", "mix-2", "mix-3"] },
    { name: "burst of 200 remembers", agents: ["burst-200"] },
    { name: "inside compression passes", agents: ["pass-0", "pass-1"] },
    { name: "DELETE with writes queued behind", agents: ["del-0", "del-1"] },
    { name: "session deleted, memories expiring (no twin)", agents: ["sess-0", "sess-1"] },
    { name: "killed in the background build of the copy", agents: [...BUILD_AGENTS] },
  ];
  // Phase 5 (wake-phase.ts) kills with every agent above; its writes go to pass-0 and pass-1.
  // Twin-independent checks (`own`) always fail the run; the comparison with the twin (`twin`) too,
  // and the probes of bugs found earlier must not show them.
  const verdicts = new Map<string, { own: string[]; twin: string[] }>();
  const verdict = (agent: string) => {
    const v = verdicts.get(agent) ?? { own: [], twin: [] };
    verdicts.set(agent, v);
    return v;
  };
  const add = (agent: string, items: readonly string[]) => verdict(agent).own.push(...items);
  const addTwin = (agent: string, items: readonly string[]) => verdict(agent).twin.push(...items);

  // The faulty run.
  // BENCH_HOOKS: the check of the objects' copies (wake-phase.ts).
  const faultyServer = await KillableServer.start("faulty", config, { ...vars, BENCH_HOOKS: "1" });
  say(`faulty server on ${faultyServer.url}`);
  const run = new FaultyRun(faultyServer);
  let faulty: Map<string, NetworkSnapshot>;
  let readAt = 0;
  const lost = new Map<string, { before: number; byRetry: number; unknown: number }>();
  let probe: ProbeVerdict;
  try {
    const probeAgent = new Agent(run.client, PROBE_AGENT);
    const probeBefore = await buildProbe(probeAgent);
    await busyPhase(run, source);
    probe = judgeProbe(probeBefore, await readProbe(probeAgent));
    say(probe.text);
    await passPhase(run);
    say("phase 3: DELETE with writes queued behind it");
    await deletePhase(run, source, "del-0", true);
    await deletePhase(run, source, "del-1", false);
    say("phase 4: a session deleted and memories expiring between remembers into the same sessions");
    await Promise.all([sessionPhase(run, source, "sess-0", 61), sessionPhase(run, source, "sess-1", 62)]);
    say(`copies after the sessions' kills: ${await checkCopies(run, "after the sessions' kills")}`);
    await wakePhase(run, source, say);
    say("faulty run done: checking tasks, reading every agent");
    for (const log of run.logs.values()) {
      await log.agent.idle();
      add(log.id, await checkTasks(log));
      lost.set(log.id, await lostAnswers(log, faultyServer.killedAt));
    }
    readAt = Date.now();
    faulty = await readAll(
      [...run.logs.values()].map((l) => l.agent),
      (id) => codesOf(run.log(id), source.codeOf),
    );
  } catch (e) {
    process.stderr.write(`\nfaulty server log: ${faultyServer.writeLog()}\n`);
    throw e;
  } finally {
    await faultyServer.dispose();
  }

  // The twin: each agent's requests replayed in order on an uninterrupted server, one at a time.
  const twinServer = await KillableServer.start("twin", config, vars);
  say(`twin server on ${twinServer.url}: replaying ${run.logs.size} agents one request at a time, and the 200 remembers as a burst`);
  const twinClient = new FaultClient(twinServer);
  let twin: Map<string, NetworkSnapshot>;
  const burstTwin = "burst-200-nofault";
  try {
    const replays = [...run.logs.values()]
      .filter((log) => !isScoped(log.id))
      .map(async (log) => {
        const agent = new Agent(twinClient, log.id);
        for (const logged of log.steps) {
          await send(agent, { ...logged, taskIds: [], lostIn: [] });
          await agent.idle();
        }
      });
    const burst = run.log("burst-200");
    const burstAgent = new Agent(twinClient, burstTwin);
    const burstReplay = (async () => {
      for (const [i, logged] of burst.steps.entries()) {
        await send(burstAgent, { step: logged.step, key: `${burstTwin}.${i}`, taskIds: [], lostIn: [] });
      }
      await burstAgent.idle();
    })();
    await Promise.all([...replays, burstReplay]);
    twin = await readAll([...[...run.logs.keys()].filter((id) => !isScoped(id)).map((id) => new Agent(twinClient, id)), burstAgent], (id) =>
      codesOf(run.log(id === burstTwin ? "burst-200" : id), source.codeOf),
    );
  } catch (e) {
    process.stderr.write(`\ntwin server log: ${twinServer.writeLog()}\n`);
    throw e;
  } finally {
    await twinServer.dispose();
    releaseDir(buildDir);
  }

  // Verdicts.
  for (const log of run.logs.values()) {
    const f = faulty.get(log.id);
    if (isScoped(log.id)) {
      if (!f) throw new Error(`${log.id}: not read`);
      const acc = scopedAccounting(log, source.codeOf, readAt);
      add(
        log.id,
        [...checkNetwork(f, acc), ...checkScoped(f, acc)].map((m) => `faulty run: ${m}`),
      );
      continue;
    }
    const t = twin.get(log.id);
    if (!f || !t) throw new Error(`${log.id}: not read`);
    const acc = accounting(log, source.codeOf);
    addTwin(log.id, diffNetworks(f, t));
    if (log.id.startsWith("del-")) {
      add(
        log.id,
        checkFreshConfig(f).map((m) => `faulty run: ${m}`),
      );
      add(
        log.id,
        checkFreshConfig(t).map((m) => `twin: ${m}`),
      );
    }
    add(
      log.id,
      checkNetwork(f, acc).map((m) => `faulty run: ${m}`),
    );
    add(
      log.id,
      checkNetwork(t, acc).map((m) => `twin: ${m}`),
    );
  }
  const burstF = faulty.get("burst-200");
  const burstS = twin.get("burst-200");
  const burstB = twin.get(burstTwin);
  if (!burstF || !burstS || !burstB) throw new Error("burst agents not read");
  const timing = diffNetworks(burstB, burstS).map((m) => `burst vs one by one: ${m}`);
  addTwin(burstTwin, timing);

  // Report.
  const rows = groups.map((g) => {
    const logs = g.agents.map((id) => run.log(id));
    const sum = (f: (l: AgentLog) => number) => logs.reduce((a, l) => a + f(l), 0);
    const fs = g.agents.map((id) => faulty.get(id)).filter((x): x is NetworkSnapshot => x !== undefined);
    const l = g.agents.map((id) => lost.get(id) ?? { before: 0, byRetry: 0, unknown: 0 });
    const mismatches = g.agents.reduce((a, id) => a + (verdicts.get(id)?.twin.length ?? 0), 0);
    const failures = g.agents.reduce((a, id) => a + (verdicts.get(id)?.own.length ?? 0), 0);
    return [
      g.name,
      String(g.agents.length),
      String(sum((x) => x.accepted)),
      `${sum((x) => x.retried)} (${l.reduce((a, x) => a + x.before, 0)} / ${l.reduce((a, x) => a + x.byRetry, 0)} / ${l.reduce((a, x) => a + x.unknown, 0)})`,
      String(fs.reduce((a, s) => a + s.stats.queue.done, 0)),
      String(fs.reduce((a, s) => a + s.stats.nodes.total, 0)),
      String(fs.reduce((a, s) => a + s.stats.links.total, 0)),
      String(mismatches),
      String(failures),
    ];
  });
  rows.push([
    "burst (no fault) vs one by one",
    "2",
    String(run.log("burst-200").accepted),
    "–",
    String(burstB.stats.queue.done),
    String(burstB.stats.nodes.total),
    String(burstB.stats.links.total),
    String(timing.length),
    "–",
  ]);
  const killRows = run.kills.map((k, i) => [
    String(i + 1),
    k.phase,
    k.trigger,
    String(k.acceptedBefore),
    (k.restartMs / 1000).toFixed(1),
    k.evidence,
  ]);
  const mismatches = [...verdicts.values()].reduce((a, v) => a + v.twin.length, 0);
  const ownFailures = [...verdicts.values()].reduce((a, v) => a + v.own.length, 0);
  const out: string[] = [];
  out.push(
    renderText({
      title: "Kills (SIGKILL to the server's process group, restart on the same persist directory)",
      headers: ["#", "phase", "when", "writes accepted before", "restart s", "evidence"],
      rows: killRows,
      align: ["right", "left", "left", "right", "right", "left"],
    }),
  );
  out.push(
    renderText({
      title: "Faulty run against its fault-free twin",
      headers: [
        "scenario",
        "agents",
        "writes accepted",
        "answers lost to kills (queued before / by retry / unknown)",
        "tasks done",
        "nodes",
        "links",
        "mismatches vs twin",
        "failed own checks",
      ],
      rows,
    }),
  );
  for (const [agent, v] of verdicts) {
    const items = [...v.own, ...v.twin.map((m) => `vs twin: ${m}`)];
    if (items.length > 0)
      out.push(
        `${agent}:\n${listed(items)
          .map((m) => `  - ${m}`)
          .join("\n")}`,
      );
  }
  for (const f of run.failures) out.push(`FAILED: ${f}`);
  out.push(probe.text);
  const counts = run.client.counts;
  const tasksDone = [...faulty.values()].reduce((a, f) => a + f.stats.queue.done, 0);
  // Pins: sent among the other writes (a pin of a memory forgotten by then finds none and sends nothing).
  const pinSteps = [...run.logs.values()].flatMap((log) => log.steps.map((l) => l.step)).filter((step) => step.op === "pin");
  const pinsSent = pinSteps.filter((step) => step.nodeId !== undefined && step.nodeId !== null).length;
  const pinnedAtEnd = [...faulty.values()].reduce((a, f) => a + f.nodes.filter((n) => n.pinned).length, 0);
  out.push(`${pinsSent} pins and unpins sent (${pinSteps.length - pinsSent} found no memory), ${pinnedAtEnd} memories pinned at the end`);
  if (pinsSent === 0) {
    run.failures.push("the workload sent no pin: the mixed scripts no longer exercise pins");
    out.push("FAILED: the workload sent no pin: the mixed scripts no longer exercise pins");
  }
  out.push(
    `${run.kills.length} kills, ${run.accepted} writes accepted, ${tasksDone} tasks done, ${counts.lostToKill} answers lost to kills and sent again, ` +
      `${counts.resentWhileUp} re-sends while up; ${mismatches} mismatches vs the twin` +
      ", " +
      `${ownFailures} failed own checks; ${elapsed().trim()} in all.`,
  );
  console.log(out.join("\n\n"));
  if (mismatches > 0 || !probe.passed || ownFailures > 0 || run.failures.length > 0) process.exit(1);
}

main().catch((e: unknown) => {
  const describe = (x: unknown): string =>
    x instanceof Error ? `${x.stack ?? x.message}${x.cause === undefined ? "" : `\ncaused by: ${describe(x.cause)}`}` : String(x);
  process.stderr.write(`\ntest:faults: ${describe(e)}\n`);
  process.exit(1);
});
