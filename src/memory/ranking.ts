/**
 * Ranking of recalled memories (DESIGN §5): keyword hits first, then path strength from the start
 * nodes, then importance, then similarity to the query (for memories found through search); ties
 * go to the newer node. Pure, so the order is unit-tested.
 */

export interface RankedMemory<N> {
  id: number;
  node: N;
  hits: number;
  pathStrength: number;
  importance: number;
  /** Search score of the memory, normalised to (0, 1] (0 when not found by search). */
  similarity: number;
  depth: number;
}

export function compareMemories<N>(a: RankedMemory<N>, b: RankedMemory<N>): number {
  return (
    b.hits - a.hits ||
    b.pathStrength - a.pathStrength ||
    b.importance - a.importance ||
    b.similarity - a.similarity ||
    b.id - a.id
  );
}

export function rankMemories<N>(items: readonly RankedMemory<N>[], limit: number): RankedMemory<N>[] {
  return [...items].sort(compareMemories).slice(0, limit);
}
