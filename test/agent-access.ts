/**
 * What several tests read of an agent's object beyond its RPC methods, through its documented
 * test interface (MemoryAgent.testAccess): scan counts, links as they stand, a runner of its own.
 */
import { runInDurableObject } from "cloudflare:test";
import type { AgentState } from "../src/agent/agent-state";
import { MemoryAgent } from "../src/agent/memory-agent";
import { AGENT_TASKS } from "../src/agent/agent-tasks";
import { QueueRunner } from "../src/engine/queue-runner";
import { effectiveLevel } from "../src/memory/strength";
import { DEV_TENANT } from "../src/http/principal";
import { agentRows, stubOf } from "./helpers";

/** Every node's scan count, as the agent's object keeps them (src/engine/stores/scan-store.ts). */
export async function scanCounts(agentId: string): Promise<Map<number, number>> {
  return runInDurableObject(stubOf(agentId), (instance: MemoryAgent) => {
    const { state } = MemoryAgent.testAccess(instance);
    const cycles = state.meta.scanCycles();
    const rows = state.storage.sql.exec<{ node_id: number; base: number }>("SELECT node_id, base FROM node_scan").toArray();
    return new Map(rows.map((r) => [r.node_id, cycles - r.base]));
  });
}

export interface LinkAsItStands {
  source: number;
  target: number;
  relation: string;
  /** The effective level: PINNED_LEVEL while an end is in the focus (src/memory/strength.ts). */
  level: number;
}

/**
 * The agent's links with their levels as they stand, computed from the raw D1 rows (stored
 * level and epoch, the ends' releases) and the object's focus with the pure formula of
 * src/memory/strength.ts, independently of the SQL the agent itself reads them with.
 */
export async function linksAsTheyStand(agentId: string): Promise<LinkAsItStands[]> {
  const { db, key } = await agentRows(agentId);
  const releases = await db
    .prepare("SELECT id, released_clock AS clock, released_epoch AS epoch FROM nodes WHERE agent = ?")
    .bind(key)
    .all<{ id: number; clock: number | null; epoch: number | null }>();
  const release = new Map(
    releases.results.map((r) => [r.id, r.clock === null || r.epoch === null ? null : { clock: r.clock, epoch: r.epoch }]),
  );
  const view = await stubOf(agentId).focusView({ tenantId: DEV_TENANT, agentId });
  const focus = new Set(view.focus.map((f) => f.node_id));
  const rows = await db
    .prepare("SELECT source, target, relation, level, epoch FROM links WHERE agent = ?")
    .bind(key)
    .all<{ source: number; target: number; relation: string; level: number; epoch: number }>();
  return rows.results.map((l) => ({
    source: l.source,
    target: l.target,
    relation: l.relation,
    level: effectiveLevel(l, [release.get(l.source) ?? null, release.get(l.target) ?? null], focus.has(l.source) || focus.has(l.target)),
  }));
}

/** A runner of the agent's own state whose alarm is a variable: each run is one invocation. */
export function ownRunner(state: AgentState, ctx: DurableObjectState) {
  let alarm: number | null = null;
  const storage = new Proxy(ctx.storage, {
    get(target, prop) {
      if (prop === "getAlarm") return async () => alarm;
      if (prop === "setAlarm") return async (at: number | Date) => void (alarm = typeof at === "number" ? at : at.getTime());
      if (prop === "deleteAlarm") return async () => void (alarm = null);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const context = new Proxy(ctx, {
    get(target, prop) {
      if (prop === "storage") return storage;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const runner = new QueueRunner(state, context, AGENT_TASKS);
  runner.retryDelay = () => 0;
  return {
    runner,
    alarm: () => alarm,
    /** One invocation: the alarm fires (if set) and its drain runs. */
    async invoke(): Promise<void> {
      alarm = null;
      await runner.runFromAlarm();
    },
  };
}

/** Runs `work` and counts the D1 statements (and batches) the object sends to any shard meanwhile. */
export async function statementsDuring<T>(state: AgentState, work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const shards = state.network.d1Shards;
  let statements = 0;
  const watched = (d1: D1Database): D1Database =>
    new Proxy(d1, {
      get: (target, prop) => {
        if (prop === "prepare" || prop === "batch" || prop === "exec") statements += 1;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  state.network.d1Shards = shards.with(Object.fromEntries(shards.names.map((name) => [name, watched(shards.get(name))])));
  try {
    return { result: await work(), statements };
  } finally {
    state.network.d1Shards = shards;
  }
}
