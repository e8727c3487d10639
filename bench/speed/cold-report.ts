/** The cold section's tables and goals (cold-bench.ts; docs/design.md, "The cold path and the storage layout"). */
import type { Goal } from "../driver/goal";
import { fmt, type Table } from "../lib/table";
import type { ColdCall, ColdResult, ColdRun } from "./cold-result";

const READS: readonly ColdCall[] = ["recall", "search", "context"];
/** The agent the first-read goals are held at. */
const GOAL_SIZE = "10k";

export function coldTables(cold: ColdResult | null): Table[] {
  if (!cold) return [];
  const runs: Table = {
    title: `cold path: first call after the object's eviction and the call right after (warm), per simulated D1 round trip; D1 figures of the cold call (medians over the rounds)`,
    headers: [
      "agent",
      "nodes",
      "links",
      "RTT ms",
      "call",
      "rounds",
      "cold p50",
      "cold p95",
      "warm p50",
      "warm p95",
      "sequential stmts",
      "stmts",
      "rows read",
      "warm seq. stmts",
    ],
    align: ["left", "right", "right", "right", "left"],
    rows: cold.runs.map((r) => [
      `${r.size}${r.cached ? "" : " (not cached)"}`,
      String(r.nodes),
      String(r.links),
      String(r.rttMs),
      r.call,
      String(r.rounds),
      fmt(r.coldP50Ms, 0),
      fmt(r.coldP95Ms, 0),
      fmt(r.warmP50Ms, 0),
      fmt(r.warmP95Ms, 0),
      fmt(r.sequentialStatements, 0),
      fmt(r.statements, 0),
      fmt(r.rowsRead, 0),
      fmt(r.warmSequentialStatements, 0),
    ]),
  };
  const fresh: Table = {
    title: "cold path: the first call of a fresh isolate (a restarted server: the local model's start-up and the object's wake)",
    headers: ["nodes", "RTT ms", "call", "first ms", "second ms", "sequential stmts", "rows read"],
    rows: cold.freshIsolate.map((f) => [
      String(f.nodes),
      String(f.rttMs),
      f.call,
      fmt(f.firstMs, 0),
      fmt(f.secondMs, 0),
      String(f.sequentialStatements),
      String(f.rowsRead),
    ]),
  };
  return [runs, fresh];
}

const find = (cold: ColdResult, size: string, rttMs: number, call: ColdCall): ColdRun | undefined =>
  cold.runs.find((r) => r.size === size && r.rttMs === rttMs && r.call === call);

/** The cold path's goals (issue 35's "Done when"), one per simulated round trip. */
export function coldGoals(cold: ColdResult | null, quick: boolean): Goal[] {
  const rtts = cold?.settings.rttsMs ?? [0, 50, 150];
  const noteOf = (found: boolean): string | null =>
    cold === null ? "not measured" : !found ? `no ${GOAL_SIZE} agent in this run` : quick ? "--quick" : null;
  const goals: Goal[] = [];
  for (const rtt of rtts) {
    const runs = cold ? READS.map((call) => find(cold, GOAL_SIZE, rtt, call)) : [];
    const found = runs.length > 0 && runs.every((r) => r !== undefined);
    const bound = 150 + 3 * rtt;
    goals.push({
      id: `cold-first-read-${GOAL_SIZE}-rtt-${rtt}`,
      goal: `first recall, search and context after eviction at ${GOAL_SIZE} nodes, ${rtt} ms D1 round trip: p95 ≤ ${bound} ms, ≤ 3 sequential statements`,
      measured: found
        ? runs.map((r) => `${r?.call} ${fmt(r?.coldP95Ms, 0)} ms / ${fmt(r?.sequentialStatements, 0)} stmts`).join(", ")
        : "–",
      met: found
        ? runs.every((r) => r !== undefined && r.coldP95Ms !== null && r.coldP95Ms <= bound && (r.sequentialStatements ?? 0) <= 3)
        : null,
      note: noteOf(found),
    });
  }
  for (const rtt of rtts) {
    const r = cold ? find(cold, GOAL_SIZE, rtt, "remember") : undefined;
    goals.push({
      id: `cold-remember-ack-${GOAL_SIZE}-rtt-${rtt}`,
      goal: `remember acknowledgement after eviction at ${GOAL_SIZE} nodes, ${rtt} ms round trip: p95 ≤ ${100 + rtt} ms`,
      measured: r ? `${fmt(r.coldP95Ms, 0)} ms / ${fmt(r.sequentialStatements, 0)} stmts` : "–",
      met: r?.coldP95Ms == null ? null : r.coldP95Ms <= 100 + rtt,
      note: noteOf(r !== undefined),
    });
  }
  const past = cold?.runs.find((r) => !r.cached && r.rttMs === 50 && r.call === "recall");
  goals.push({
    id: "past-cache-recall-rtt-50",
    goal: "recall of an agent past the cached size, 50 ms round trip: p95 ≤ 1 s (statements stated)",
    measured: past
      ? `${fmt(past.coldP95Ms, 0)} ms cold, ${fmt(past.warmP95Ms, 0)} ms warm; ${fmt(past.sequentialStatements, 0)} / ${fmt(past.warmSequentialStatements, 0)} sequential stmts`
      : "–",
    met: past ? past.coldP95Ms !== null && past.warmP95Ms !== null && Math.max(past.coldP95Ms, past.warmP95Ms) <= 1000 : null,
    note: past ? `${past.nodes} nodes, ${past.links} links` : cold === null ? "not measured" : "no agent past the cache in this run",
  });
  return goals;
}
