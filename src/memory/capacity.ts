/**
 * Capacity, scheme A (docs/design.md, "Compression"): an agent holds at most `capacity` nodes; beyond
 * it the least important nodes are deleted first. The least important are found by sampling, not
 * by sorting the whole network: a sample of random node ids is drawn and its least important nodes
 * are evicted. Randomness is seeded, so the same history always evicts the same nodes.
 */

/** Nodes examined to pick `excess` evictions: small networks are examined whole. */
export function sampleSize(excess: number): number {
  return 64 + 8 * excess;
}

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct ids drawn uniformly from [minId, maxId] (all of them when the range is small). */
export function sampleIds(minId: number, maxId: number, count: number, random: () => number): number[] {
  const span = maxId - minId + 1;
  if (span <= 0) return [];
  if (span <= count) return Array.from({ length: span }, (_, i) => minId + i);
  const picked = new Set<number>();
  while (picked.size < count) picked.add(minId + Math.floor(random() * span));
  return [...picked];
}

/** The `excess` least important candidates (ties: the oldest first). */
export function pickEvictions(candidates: readonly { id: number; importance: number }[], excess: number): number[] {
  return [...candidates]
    .sort((a, b) => a.importance - b.importance || a.id - b.id)
    .slice(0, Math.max(0, excess))
    .map((c) => c.id);
}
