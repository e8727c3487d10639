/**
 * The state of the storage agents are spread over (docs/design.md, "Scale and limits", docs/deploy.md "Limits"):
 * every configured D1 shard (a round trip, and its size from the answer's metadata) and every
 * Vectorize index (its vector count and how far it has processed writes, from describe()). The
 * cron records these measurements in the registry, which closes a shard or index past
 * STORAGE_FILL_RATIO of its capacity to new agents; the deep health check reports them.
 */
import { z } from "zod";
import { D1_MAX_DATABASE_BYTES, STORAGE_FILL_RATIO } from "../config/limits";
import { AgentRegistry } from "../storage/agent-registry";
import { D1Shards, type ShardEnv } from "../storage/d1-shards";
import { takesNewAgents, type ShardStatus } from "../storage/storage-shards";
import { allVectorIndexNames, vectorIndexCapacity, vectorizeBinding, type VectorEnv } from "../vectors/providers";

export type StorageEnv = ShardEnv & VectorEnv;

export interface D1ShardState {
  binding: string;
  ok: boolean;
  ms: number;
  /** The database's size after the round trip, when D1 reported it. */
  bytes: number | null;
  /** Whether new agents may be assigned to it (the registry's view). */
  accepting: boolean;
  full_reason: string | null;
  error?: string;
}

export interface VectorIndexState {
  binding: string;
  ok: boolean;
  ms: number;
  vectors: number | null;
  capacity: number;
  /** The index's last processed write (how far behind it is), when it reported one. */
  processed_up_to: string | null;
  accepting: boolean;
  full_reason: string | null;
  error?: string;
}

const Meta = z.object({ meta: z.object({ size_after: z.number().optional() }).optional() });
const Info = z.object({
  vectorCount: z.number(),
  processedUpToDatetime: z.union([z.string(), z.number()]).nullish(),
});

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A round trip to every configured D1 shard, with its size. */
export async function checkD1Shards(env: StorageEnv, statuses: readonly ShardStatus[]): Promise<D1ShardState[]> {
  const shards = D1Shards.fromEnv(env);
  return Promise.all(
    shards.names.map(async (binding): Promise<D1ShardState> => {
      const status = statuses.find((s) => s.kind === "d1" && s.binding === binding);
      const base = { binding, accepting: takesNewAgents(status), full_reason: status?.fullReason ?? null };
      const started = Date.now();
      try {
        const answer = Meta.safeParse(await shards.get(binding).prepare("SELECT 1").run());
        const bytes = answer.success ? (answer.data.meta?.size_after ?? null) : null;
        return { ...base, ok: true, ms: Date.now() - started, bytes };
      } catch (err) {
        return { ...base, ok: false, ms: Date.now() - started, bytes: null, error: errorText(err) };
      }
    }),
  );
}

/** Every configured Vectorize index's count and processing, from describe(); none with the local index. */
export async function checkVectorIndexes(env: StorageEnv, statuses: readonly ShardStatus[]): Promise<VectorIndexState[]> {
  const names = allVectorIndexNames(env);
  const capacity = names.length > 0 ? vectorIndexCapacity(env) : 0;
  return Promise.all(
    names.map(async (binding): Promise<VectorIndexState> => {
      const status = statuses.find((s) => s.kind === "vectorize" && s.binding === binding);
      const base = { binding, capacity, accepting: takesNewAgents(status), full_reason: status?.fullReason ?? null };
      const started = Date.now();
      try {
        const info = Info.parse(await vectorizeBinding(env, binding).describe());
        const at = info.processedUpToDatetime;
        const ms = at === null || at === undefined ? NaN : typeof at === "number" ? at : Date.parse(at);
        const processed = Number.isFinite(ms) ? new Date(ms).toISOString() : null;
        return { ...base, ok: true, ms: Date.now() - started, vectors: info.vectorCount, processed_up_to: processed };
      } catch (err) {
        return { ...base, ok: false, ms: Date.now() - started, vectors: null, processed_up_to: null, error: errorText(err) };
      }
    }),
  );
}

/**
 * The cron's measurement: every shard's size and every index's vector count, recorded in the
 * registry, which closes those past STORAGE_FILL_RATIO of their capacity to new agents.
 */
export async function measureStorage(env: StorageEnv, now: number): Promise<{ d1: D1ShardState[]; vectors: VectorIndexState[] }> {
  const registry = new AgentRegistry(env.DB);
  const statuses = await registry.shards.list();
  const [d1, vectors] = await Promise.all([checkD1Shards(env, statuses), checkVectorIndexes(env, statuses)]);
  for (const shard of d1) {
    if (shard.bytes === null) continue;
    await registry.shards.recordMeasurement("d1", shard.binding, shard.bytes, D1_MAX_DATABASE_BYTES * STORAGE_FILL_RATIO, now);
  }
  for (const index of vectors) {
    if (index.vectors === null) continue;
    await registry.shards.recordMeasurement("vectorize", index.binding, index.vectors, index.capacity * STORAGE_FILL_RATIO, now);
  }
  return { d1, vectors };
}
