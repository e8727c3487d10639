/**
 * Ranking of recalled memories (DESIGN §5): keyword hits first, then path strength from the start
 * nodes, then importance; ties go to the newer node. Pure, so the order is unit-tested.
 */

export interface RankedMemory<N> {
  id: number;
  node: N;
  hits: number;
  pathStrength: number;
  importance: number;
  depth: number;
}

export function compareMemories<N>(a: RankedMemory<N>, b: RankedMemory<N>): number {
  return b.hits - a.hits || b.pathStrength - a.pathStrength || b.importance - a.importance || b.id - a.id;
}

export function rankMemories<N>(items: readonly RankedMemory<N>[], limit: number): RankedMemory<N>[] {
  return [...items].sort(compareMemories).slice(0, limit);
}
