/**
 * Typed key-value state of one agent, persisted in its Durable Object. Values are JSON; each key
 * has a zod schema so a value read back is parsed, never cast.
 */
import { z } from "zod";
import { MAX_NODE_ID } from "../../config/limits";
import { AgentParamsSchema, DEFAULT_PARAMS, type AgentParams } from "../../config/params";
import type { TenantLimits } from "../../config/quotas";
import { JurisdictionSchema } from "../../vocabulary/jurisdictions";
import { RegionSchema } from "../../vocabulary/regions";
import { PermanentTaskError } from "../task-errors";

/** `jurisdiction`: the namespace the object was addressed in (absent: none; src/agent/naming.ts). */
const Identity = z.object({ tenantId: z.string(), agentId: z.string(), jurisdiction: JurisdictionSchema.optional() });

/** The version of the agent's data layout this code writes (see src/agent/upgrade.ts). */
export const DATA_VERSION = 4;

const KEYS = {
  identity: Identity,
  /** The agent's row id in the D1 registry (set on first write). */
  agentUid: z.number().int(),
  /**
   * Where the agent's memory lives, as the registry assigned it (src/storage/agent-registry.ts):
   * its D1 shard and key there, its Vectorize index, the region its shard was chosen in (absent:
   * none, or placed before regions). Absent for agents registered before
   * sharding: the primary database with the registry id as key (legacyPlacement).
   */
  placement: z.object({
    d1: z.string(),
    key: z.number().int(),
    vectors: z.string().nullable(),
    region: RegionSchema.nullable().optional(),
  }),
  nextNodeId: z.number().int().min(1),
  /** The decay clock (src/memory/strength.ts). */
  clock: z.number(),
  /** Number of the latest compression cycle started. */
  cycle: z.number().int(),
  /** Compression cycles whose scans are complete: scan count = scanCycles − a node's base (scan-store.ts). */
  scanCycles: z.number().int(),
  /** The layout of the agent's data (D1 rows, scan bookkeeping); absent: before DATA_VERSION 2. */
  dataVersion: z.number().int(),
  params: AgentParamsSchema,
  /** The due time last written to the D1 registry, so it is written only when it changes. */
  registeredDue: z.number().nullable(),
  /** Lifetime counters (stats). */
  counters: z.record(z.string(), z.number()),
  /**
   * The tenant's limits as the edge last sent them with a write (src/agent/tenant-terms.ts): what
   * the object applies when it works without a request (a cycle's capacity, the model weight).
   */
  tenantLimits: z.object({
    agents: z.number(),
    nodesPerAgent: z.number(),
    messagesPerDay: z.number(),
    requestsPerMinute: z.number(),
    modelWeight: z.number(),
  }) satisfies z.ZodType<TenantLimits>,
  /**
   * The agent was found past the graph's limits with at least these many nodes and links: a wake
   * serves it from D1 without loading pages (src/agent/past-limits.ts). Removed in the commit
   * of any write that may leave fewer (the write table's `shrinks`), so the counts are a lower
   * bound of the agent's size while the key exists (docs/design.md, "Decision 3").
   */
  pastLimits: z.object({ nodes: z.number().int(), links: z.number().int() }),
} as const;

type Keys = typeof KEYS;
export type MetaKey = keyof Keys;
export type MetaValue<K extends MetaKey> = z.infer<Keys[K]>;

export class MetaStore {
  private readonly cache = new Map<MetaKey, unknown>();

  constructor(private readonly sql: SqlStorage) {}

  get<K extends MetaKey>(key: K): MetaValue<K> | undefined {
    if (this.cache.has(key)) return this.cache.get(key) as MetaValue<K> | undefined;
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    const parsed = row ? KEYS[key].safeParse(JSON.parse(row.value)) : undefined;
    const value = parsed?.success ? (parsed.data as MetaValue<K>) : undefined;
    this.cache.set(key, value);
    return value;
  }

  set<K extends MetaKey>(key: K, value: MetaValue<K>): void {
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      JSON.stringify(value),
    );
    this.cache.set(key, value);
  }

  delete(key: MetaKey): void {
    this.sql.exec("DELETE FROM meta WHERE key = ?", key);
    this.cache.set(key, undefined);
  }

  params(): AgentParams {
    return this.get("params") ?? DEFAULT_PARAMS;
  }

  /** The most nodes the agent holds: its `capacity`, within its tenant's nodes-per-agent quota. */
  capacity(): number {
    return Math.min(this.params().capacity, this.get("tenantLimits")?.nodesPerAgent ?? Infinity);
  }

  clock(): number {
    return this.get("clock") ?? 0;
  }

  nextNodeId(): number {
    return this.get("nextNodeId") ?? 1;
  }

  /**
   * Takes node ids up to `next` (exclusive). Ids never pass MAX_NODE_ID (src/config/limits.ts): the
   * agent refuses writes before they could (MemoryAgent.submit), so this is the last guard.
   */
  setNextNodeId(next: number): void {
    if (!Number.isInteger(next) || next < 1 || next > MAX_NODE_ID + 1) {
      throw new PermanentTaskError(`node ids are used up: an agent's node ids end at ${MAX_NODE_ID} (2^30 − 1); ${next - 1} asked`);
    }
    this.set("nextNodeId", next);
  }

  scanCycles(): number {
    return this.get("scanCycles") ?? 0;
  }

  counters(): Record<string, number> {
    return this.get("counters") ?? {};
  }

  /** Adds to lifetime counters (nodes compressed, model failures, characters remembered, …). */
  bump(deltas: Record<string, number>): void {
    const counters = { ...this.counters() };
    for (const [name, delta] of Object.entries(deltas)) counters[name] = (counters[name] ?? 0) + delta;
    this.set("counters", counters);
  }

  /** Forgets the in-memory copies (a transaction rolled back): read again on next use. */
  clearCache(): void {
    this.cache.clear();
  }

  /** Forgets everything but the agent's identity (agent deletion). */
  clearAllButIdentity(): void {
    this.sql.exec("DELETE FROM meta WHERE key <> 'identity'");
    this.cache.clear();
  }
}
