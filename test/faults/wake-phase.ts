/**
 * The object's copy of the network under kills (docs/design.md, "The cold path and the storage
 * layout", Decision 1): a wake loads the graph from the snapshot and journal in the object's own
 * SQLite, and the snapshot is written again a quiet second after a commit. This phase kills the
 * server while the agents' objects load their graphs (recalls just sent to freshly restarted
 * objects), around the moment a snapshot is written (a second after a remember's commit) and inside
 * the background build of a new agent's first copy (from D1, a second after its commits), and
 * after every restart, once the queues are idle, compares every agent's copy, loaded afresh, with
 * its rows in D1 (`checkCopies`, the hook src/agent/copy-check.ts).
 */
import type { Agent } from "./api";
import type { AgentLog, MessageSource } from "./workload";

/** What the phase needs of the faulty run (run.ts). */
export interface KillingRun {
  log(id: string): AgentLog;
  readonly logs: ReadonlyMap<string, AgentLog>;
  readonly failures: string[];
  kill(phase: string, trigger: string, evidence: string): Promise<{ evidence: string }>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The quiet time after a commit before the snapshot is written (src/agent/agent-network.ts). */
const QUIET_MS = 1_000;

/**
 * Every agent idle, then its copy compared with D1; a mismatch fails the run. Answers a summary
 * (copies checked, the journal entries they replayed).
 */
export async function checkCopies(run: KillingRun, when: string): Promise<string> {
  let copies = 0;
  let replayed = 0;
  for (const log of run.logs.values()) {
    await log.agent.idle();
    const check = await log.agent.copyCheck();
    if (check.copy) copies += 1;
    replayed += check.journal;
    for (const m of check.mismatches) run.failures.push(`${when}: ${log.id}: the object's copy is not D1: ${m}`);
  }
  return `${copies} of ${run.logs.size} copies equal to D1 (${replayed} journal entries replayed)`;
}

/** Recalls sent to every agent at once: each object loads its graph for the first after a restart. */
function recallAll(agents: readonly Agent[]): Promise<unknown> {
  return Promise.all(agents.map((a) => a.recall(["work"], 5)));
}

export async function wakePhase(run: KillingRun, source: MessageSource, say: (text: string) => void): Promise<void> {
  const agents = [...run.logs.values()].map((l) => l.agent);
  const writers = [run.log("pass-0"), run.log("pass-1")];
  say("phase 5: kills while the objects load their graphs, and around snapshot writes");
  // Copies exist: each agent's graph loaded (from D1 the first time) and its snapshot written.
  await recallAll(agents);
  await sleep(QUIET_MS * 2);
  say(`copies before: ${await checkCopies(run, "before phase 5")}`);
  for (const delay of [0, 15, 40]) {
    // The previous kill's restart left every object unloaded: these recalls make them load.
    const recalls = recallAll(agents);
    await sleep(delay);
    const record = await run.kill("wake", `${delay} ms after recalls reached ${agents.length} objects restarted unloaded`, "");
    await recalls;
    record.evidence = await checkCopies(run, `after the kill ${delay} ms into the wakes' loads`);
  }
  for (const [round, delay] of [0, 10, 30, 60].entries()) {
    // A commit on each writer; its snapshot is written a quiet second after it.
    const messages = (lang: "en" | "zh", i: number) => source.messages(lang, 4, 61 + round * 2 + i, `wake-${round}-${i}`);
    const steps = await Promise.all(writers.map((log, i) => log.run({ op: "remember", messages: messages(i === 0 ? "en" : "zh", i) })));
    const finished = await Promise.all(
      writers.map(async (log, i) => (await log.agent.task(steps[i]?.taskIds[0] ?? "", 30_000))?.finished_at ?? Date.now()),
    );
    const at = Math.max(...finished) + QUIET_MS + delay;
    await sleep(Math.max(0, at - Date.now()));
    const record = await run.kill("snapshot", `${delay} ms after the quiet second that follows a commit on ${writers.length} agents`, "");
    record.evidence = await checkCopies(run, `after the kill around a snapshot write (+${delay} ms)`);
  }
  // Agents that only took writes have no copy: a quiet second after their commits the object loads
  // the graph from D1 and writes it (the background build). Kills land inside that load.
  for (const [round, delay] of [0, 5, 20].entries()) {
    const builders = BUILD_AGENTS.slice(round * 2, round * 2 + 2).map((id) => run.log(id));
    const steps = await Promise.all(
      builders.map((log, i) =>
        log.run({ op: "remember", messages: source.messages(i === 0 ? "en" : "zh", 12, 71 + round * 2 + i, log.id) }),
      ),
    );
    const finished = await Promise.all(
      builders.map(async (log, i) => (await log.agent.task(steps[i]?.taskIds[0] ?? "", 30_000))?.finished_at ?? Date.now()),
    );
    await sleep(Math.max(0, Math.max(...finished) + QUIET_MS + delay - Date.now()));
    const record = await run.kill("build", `${delay} ms into the quiet second's background build on ${builders.length} new agents`, "");
    record.evidence = await checkCopies(run, `after the kill in a background build (+${delay} ms)`);
  }
}

/** The agents of the background build's kills (each written once, never read before the kill). */
export const BUILD_AGENTS = ["build-0", "build-1", "build-2", "build-3", "build-4", "build-5"] as const;
