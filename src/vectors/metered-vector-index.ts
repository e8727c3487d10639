/**
 * A vector index that reports what Vectorize bills (docs/deploy.md, "Cost and ceiling"): each
 * query, and each vector written with its dimensions (stored vector dimensions). Only the
 * production-shaped benchmark turns it on (src/agent/usage-meter.ts); the index itself is unchanged.
 */
import type { VectorHit, VectorIndex, VectorIndexStats, VectorQuery, VectorRecord } from "./types";

export interface VectorUsage {
  queries: number;
  upserted: number;
  /** Dimensions of the vectors upserted (vectors × their length). */
  dimensionsUpserted: number;
  removed: number;
}

export type VectorMeter = (usage: VectorUsage) => void;

const NONE: VectorUsage = { queries: 0, upserted: 0, dimensionsUpserted: 0, removed: 0 };

class MeteredVectorIndex implements VectorIndex {
  constructor(
    private readonly inner: VectorIndex,
    private readonly meter: VectorMeter,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  get dimensions(): number {
    return this.inner.dimensions;
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    await this.inner.upsert(records);
    this.meter({ ...NONE, upserted: records.length, dimensionsUpserted: records.reduce((a, r) => a + r.vector.length, 0) });
  }

  async remove(nodeIds: readonly number[]): Promise<void> {
    await this.inner.remove(nodeIds);
    this.meter({ ...NONE, removed: nodeIds.length });
  }

  async query(query: VectorQuery): Promise<VectorHit[]> {
    const hits = await this.inner.query(query);
    this.meter({ ...NONE, queries: 1 });
    return hits;
  }

  stats(): Promise<VectorIndexStats> {
    return this.inner.stats();
  }
}

/** `index` with its queries and writes reported to `meter` once they succeeded. */
export function meteredVectorIndex(index: VectorIndex, meter: VectorMeter): VectorIndex {
  return new MeteredVectorIndex(index, meter);
}
