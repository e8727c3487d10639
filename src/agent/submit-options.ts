/** What a write or cycle is submitted with besides its payload (MemoryAgent.submit). */
import type { TenantLimits } from "../config/quotas";
import type { Region } from "../vocabulary/regions";

export interface SubmitOptions {
  /** Wait up to this long for the (last) task to finish before answering. */
  waitMs?: number;
  /** Queue this many identical tasks at once (compression cycles). */
  repeat?: number;
  /** The client's Idempotency-Key: a retry with the same key and request queues nothing again. */
  idempotencyKey?: string;
  /** The tenant's limits, as the edge resolved them from the key (src/agent/tenant-terms.ts). */
  limits?: TenantLimits;
  /**
   * The tenant's region, as the edge resolved it from the key: where a new agent's shard is chosen
   * (its object was addressed with the same location hint). An agent placed before keeps its place.
   */
  region?: Region;
}
