/**
 * From a BFS result to what recall returns (docs/design.md §5): the segments that match the keywords,
 * ranked, and a few traces of forgotten memories met on the way. Entity nodes are hubs: the search
 * passes through them and an entity whose name matches a keyword lends that hit to the segments
 * that are about it (linked by 关于), but an entity is never returned itself. Segments that were
 * merely remembered while the entity was in focus (相关) get no hit from it: their own words decide.
 */
import type { BfsResult } from "./bfs";
import type { KeywordMatcher, TermLookup } from "./keyword-match";
import type { NodeKind } from "../vocabulary/node-kinds";
import type { MemoryNode } from "../vocabulary/records";
import { keywordWeights, rankMemories, type RankedMemory } from "./ranking";
import { RELATION } from "../vocabulary/relations";

export interface ForgottenTrace {
  /** The node that still links to what was forgotten. */
  sourceId: number;
  /** The forgotten node. */
  targetId: number;
  sourcePhrase: string;
  relation: string;
  strength: number;
  hits: number;
}

export interface RecallSelection {
  memories: RankedMemory<MemoryNode>[];
  traces: ForgottenTrace[];
}

export interface SelectOptions {
  limit: number;
  maxTraces: number;
}

/**
 * Keyword hits per reached node, entity hits lent to the segments about them. `index`, when the
 * caller has one for the reached nodes' graph, spares testing every reached node.
 */
export function keywordHits(bfs: BfsResult<MemoryNode>, matcher: KeywordMatcher, index?: TermLookup): Map<number, Set<number>> {
  const hits = matcher.hitsAmong(bfs.reached, index);
  const matchedEntities: [number, ReadonlySet<number>][] = [];
  for (const [id, own] of hits) if (bfs.reached.get(id)?.node.kind === "entity") matchedEntities.push([id, own]);
  const lend = (segmentId: number, keywords: ReadonlySet<number>) => {
    const reached = bfs.reached.get(segmentId)?.node;
    if (!reached || !isRecallable(reached)) return;
    const set = hits.get(segmentId) ?? new Set<number>();
    for (const k of keywords) set.add(k);
    hits.set(segmentId, set);
  };
  for (const [entityId, keywords] of matchedEntities) {
    if (bfs.about) {
      for (const segmentId of bfs.about(entityId)) lend(segmentId, keywords);
      continue;
    }
    for (const edge of bfs.edges) {
      if (edge.relation !== RELATION.about) continue;
      if (edge.source === entityId) lend(edge.target, keywords);
      else if (edge.target === entityId) lend(edge.source, keywords);
    }
  }
  return hits;
}

/**
 * What recall returns (docs/design.md §5, §11): conversation segments and explicit memories that
 * are not superseded. Entities are hubs; a superseded memory is history, never an answer.
 */
export function isRecallable(node: Pick<MemoryNode, "kind" | "supersededBy">, kinds: ReadonlySet<NodeKind> = RECALLED_KINDS): boolean {
  return kinds.has(node.kind) && node.kind !== "entity" && node.supersededBy === null;
}

/** What recall returns unless asked otherwise: conversation segments and explicit memories (episodes on request). */
export const RECALLED_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(["segment", "memory"]);

/** Memories worth returning: with keywords, those with at least one hit; without, all reached. */
export function candidateSegments(
  bfs: BfsResult<MemoryNode>,
  hits: ReadonlyMap<number, Set<number>>,
  requireHit: boolean,
  kinds: ReadonlySet<NodeKind> = RECALLED_KINDS,
): number[] {
  return [...bfs.reached.entries()]
    .filter(([id, r]) => isRecallable(r.node, kinds) && (!requireHit || (hits.get(id)?.size ?? 0) > 0))
    .map(([id]) => id);
}

/**
 * The candidates as ranked memories, importance still 0: recall fills it in only where it can
 * still change the order (ranking.importanceNeeded), since it costs a read of every link.
 */
export function rankedCandidates(
  bfs: BfsResult<MemoryNode>,
  hits: ReadonlyMap<number, Set<number>>,
  candidates: readonly number[],
  similarity: ReadonlyMap<number, number>,
): RankedMemory<MemoryNode>[] {
  const weights = weightsOverReached(bfs, hits);
  const scoreOf = (id: number) => [...(hits.get(id) ?? [])].reduce((sum, k) => sum + (weights[k] ?? 0), 0);
  const items: RankedMemory<MemoryNode>[] = [];
  for (const id of candidates) {
    const r = bfs.reached.get(id);
    if (!r) continue;
    items.push({
      id,
      node: r.node,
      hits: hits.get(id)?.size ?? 0,
      keywordScore: scoreOf(id),
      pathStrength: r.pathStrength,
      importance: 0,
      similarity: similarity.get(id) ?? 0,
      depth: r.depth,
    });
  }
  return items;
}

export function selectRecall(
  bfs: BfsResult<MemoryNode>,
  hits: ReadonlyMap<number, Set<number>>,
  items: readonly RankedMemory<MemoryNode>[],
  requireHit: boolean,
  options: SelectOptions,
): RecallSelection {
  const traces = new Map<number, ForgottenTrace>();
  for (const link of bfs.dangling) {
    const source = bfs.reached.get(link.source);
    if (!source) continue;
    const sourceHits = hits.get(link.source)?.size ?? 0;
    if (requireHit && sourceHits === 0) continue;
    // One trace per source: its strongest dangling link (on a tie, the oldest forgotten node).
    const previous = traces.get(link.source);
    if (previous && (previous.strength > link.strength || (previous.strength === link.strength && previous.targetId < link.target)))
      continue;
    traces.set(link.source, {
      sourceId: link.source,
      targetId: link.target,
      sourcePhrase: source.node.phrase || source.node.content,
      relation: link.relation,
      strength: link.strength,
      hits: sourceHits,
    });
  }
  return {
    memories: rankMemories(items, options.limit),
    traces: [...traces.values()]
      .sort((a, b) => b.hits - a.hits || b.strength - a.strength || b.sourceId - a.sourceId)
      .slice(0, options.maxTraces),
  };
}

/** Each keyword's weight from how many of the reached segments match it (ranking.keywordWeights). */
function weightsOverReached(bfs: BfsResult<MemoryNode>, hits: ReadonlyMap<number, Set<number>>): number[] {
  const matching: number[] = [];
  let total = 0;
  for (const [id, r] of bfs.reached) {
    if (!isRecallable(r.node)) continue;
    total += 1;
    for (const k of hits.get(id) ?? []) matching[k] = (matching[k] ?? 0) + 1;
  }
  return keywordWeights(
    Array.from(matching, (n) => n ?? 0),
    total,
  );
}
