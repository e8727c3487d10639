/**
 * The state of the storage agents are spread over, in the primary database's `storage_shards`
 * (docs/deploy.md, "Limits"): per D1 shard the next agent key it hands out, per shard and index
 * the agents assigned, the last measurement, and whether it still takes new agents. A shard or
 * index is closed to new agents when the cron measures it past STORAGE_FILL_RATIO of its capacity,
 * when its agent keys run out, or when a full Vectorize index refuses a write; the agents already
 * on it stay. Nothing reopens one by itself: an operator does, with SQL (docs/deploy.md).
 */
import { and, eq, isNull } from "drizzle-orm";
import { MAX_AGENT_UID, VECTORIZE_MAX_NAMESPACES_PER_INDEX } from "../config/limits";
import type { Db } from "./db";
import { storageShards } from "./schema";

export type StorageKind = "d1" | "vectorize";

export interface ShardStatus {
  kind: StorageKind;
  binding: string;
  nextKey: number;
  agents: number;
  fullAt: number | null;
  fullReason: string | null;
  used: number | null;
  checkedAt: number | null;
}

/** Whether a shard or index takes new agents (a binding without a row yet is empty: it does). */
export function takesNewAgents(status: ShardStatus | undefined): boolean {
  if (!status) return true;
  if (status.fullAt !== null) return false;
  return status.kind === "d1" ? status.nextKey <= MAX_AGENT_UID : status.agents < VECTORIZE_MAX_NAMESPACES_PER_INDEX;
}

/**
 * The D1 shards a new agent may go to, best first: open ones with the fewest agents assigned
 * (each database is single-threaded, so load is spread), ties in configuration order. A shard
 * added to the configuration starts empty and so takes the next agents.
 */
export function d1Candidates(names: readonly string[], statuses: readonly ShardStatus[]): string[] {
  const byName = new Map(statuses.filter((s) => s.kind === "d1").map((s) => [s.binding, s]));
  return names
    .map((name, order) => ({ name, order, status: byName.get(name) }))
    .filter((c) => takesNewAgents(c.status))
    .sort((a, b) => (a.status?.agents ?? 0) - (b.status?.agents ?? 0) || a.order - b.order)
    .map((c) => c.name);
}

/**
 * The Vectorize index a new agent goes to: the first open one in configuration order. Indexes
 * fill one after the other, so an index added at the end of the list takes agents once those
 * before it are full.
 */
export function vectorIndexCandidate(names: readonly string[], statuses: readonly ShardStatus[]): string | undefined {
  const byName = new Map(statuses.filter((s) => s.kind === "vectorize").map((s) => [s.binding, s]));
  return names.find((name) => takesNewAgents(byName.get(name)));
}

export class StorageShards {
  constructor(private readonly db: Db) {}

  async list(): Promise<ShardStatus[]> {
    return this.db.select().from(storageShards);
  }

  /** Closes a shard or index to new agents (kept when already closed: the first reason stays). */
  async markFull(kind: StorageKind, binding: string, reason: string, now: number): Promise<void> {
    await this.db
      .insert(storageShards)
      .values({ kind, binding, fullAt: now, fullReason: reason })
      .onConflictDoUpdate({
        target: [storageShards.kind, storageShards.binding],
        set: { fullAt: now, fullReason: reason },
        setWhere: isNull(storageShards.fullAt),
      });
  }

  /**
   * Records a measurement (bytes of a D1 database, vectors of an index) and closes the shard to
   * new agents when it reached `closeAt`.
   */
  async recordMeasurement(kind: StorageKind, binding: string, used: number, closeAt: number, now: number): Promise<void> {
    await this.db
      .insert(storageShards)
      .values({ kind, binding, used, checkedAt: now })
      .onConflictDoUpdate({ target: [storageShards.kind, storageShards.binding], set: { used, checkedAt: now } });
    if (used >= closeAt) {
      const what = kind === "d1" ? "bytes" : "vectors";
      await this.markFull(kind, binding, `measured ${used} ${what}, at or past ${closeAt}`, now);
    }
  }

  /** Reopens a shard or index to new agents (operators do this with SQL; tests with this). */
  async reopen(kind: StorageKind, binding: string): Promise<void> {
    await this.db
      .update(storageShards)
      .set({ fullAt: null, fullReason: null })
      .where(and(eq(storageShards.kind, kind), eq(storageShards.binding, binding)));
  }
}
