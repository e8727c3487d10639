/**
 * What recall may return and the traces of forgotten memories it reports (docs/design.md, "recall(keywords, relations, depth)", "Memory operations"):
 * conversation segments and explicit memories that are not superseded; entities are hubs (the
 * search passes through them, their names are context of the memories linked to them), never
 * answers themselves.
 */
import type { BfsResult } from "./bfs";
import type { NodeKind } from "../vocabulary/node-kinds";
import type { MemoryNode } from "../vocabulary/records";

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

/**
 * What recall returns (docs/design.md, "recall(keywords, relations, depth)", "Memory operations"): conversation segments and explicit memories that
 * are not superseded. Entities are hubs; a superseded memory is history, never an answer.
 */
export function isRecallable(node: Pick<MemoryNode, "kind" | "supersededBy">, kinds: ReadonlySet<NodeKind> = RECALLED_KINDS): boolean {
  return kinds.has(node.kind) && node.kind !== "entity" && node.supersededBy === null;
}

/** What recall returns unless asked otherwise: conversation segments and explicit memories (episodes on request). */
export const RECALLED_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(["segment", "memory"]);

/**
 * A few traces of forgotten memories met on the way (dangling links of reached nodes): one per
 * source, its strongest dangling link (on a tie, the oldest forgotten node); with query terms, only
 * from sources that match them (`hits`: query terms matched per node). Most hits first, then the
 * strongest link.
 */
export function selectTraces(
  bfs: BfsResult<MemoryNode>,
  hits: ReadonlyMap<number, number>,
  requireHit: boolean,
  maxTraces: number,
  /** Whose traces may be shown (the read's filter, by the node that holds the link); anyone's when absent. */
  from: (source: MemoryNode) => boolean = () => true,
): ForgottenTrace[] {
  const traces = new Map<number, ForgottenTrace>();
  for (const link of bfs.dangling) {
    const source = bfs.reached.get(link.source);
    if (!source || !from(source.node)) continue;
    const sourceHits = hits.get(link.source) ?? 0;
    if (requireHit && sourceHits === 0) continue;
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
  return [...traces.values()].sort((a, b) => b.hits - a.hits || b.strength - a.strength || b.sourceId - a.sourceId).slice(0, maxTraces);
}
