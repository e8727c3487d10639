/**
 * An in-memory copy of one agent's network: its nodes and links, indexed both ways. The agent's
 * Durable Object is the only writer of the agent's rows, so after every committed D1 write it
 * applies the same change here; each method mirrors one storage statement exactly (see the
 * repositories in src/storage). BFS, importance, entity lookup and node counts then need no
 * database round trip (DESIGN §10: one agent's hot path lives in its Durable Object).
 */
import type { BfsResult, DanglingLink, Edge, Reached } from "./bfs";
import type { MemoryNode } from "./node";
import { PINNED_LEVEL, strengthAt } from "./strength";

export interface GraphLink {
  source: number;
  target: number;
  relation: string;
  level: number;
  createdAt: number;
}

export class MemoryGraph {
  private readonly nodeMap = new Map<number, MemoryNode>();
  private readonly entities = new Map<string, number>();
  /** Every link by "source|target|relation" (the unique key of the table). */
  private readonly byKey = new Map<string, GraphLink>();
  /** Adjacency as arrays: traversals iterate them much faster than Map iterators. */
  private readonly outgoing = new Map<number, GraphLink[]>();
  private readonly incoming = new Map<number, GraphLink[]>();

  get nodeCount(): number {
    return this.nodeMap.size;
  }

  get linkCount(): number {
    return this.byKey.size;
  }

  node(id: number): MemoryNode | undefined {
    return this.nodeMap.get(id);
  }

  nodeIds(): number[] {
    return [...this.nodeMap.keys()];
  }

  /** Nodes among `ids` that exist. */
  load(ids: readonly number[]): Map<number, MemoryNode> {
    const out = new Map<number, MemoryNode>();
    for (const id of ids) {
      const node = this.nodeMap.get(id);
      if (node) out.set(id, node);
    }
    return out;
  }

  entityId(key: string): number | undefined {
    return this.entities.get(key);
  }

  /** INSERT … ON CONFLICT DO NOTHING: an existing node (same id or entity key) is kept. */
  addNode(node: MemoryNode): void {
    if (this.nodeMap.has(node.id)) return;
    if (node.name !== null && this.entities.has(node.name)) return;
    this.nodeMap.set(node.id, node);
    if (node.name !== null) this.entities.set(node.name, node.id);
  }

  /** INSERT … ON CONFLICT DO NOTHING on (source, target, relation). */
  addLink(link: GraphLink): void {
    const key = linkKey(link);
    if (this.byKey.has(key)) return;
    const stored = { ...link };
    this.byKey.set(key, stored);
    push(this.outgoing, link.source, stored);
    push(this.incoming, link.target, stored);
  }

  updateContent(id: number, update: Pick<MemoryNode, "content" | "phrase" | "keywords">): void {
    const node = this.nodeMap.get(id);
    if (node) this.nodeMap.set(id, { ...node, content: update.content, phrase: update.phrase, keywords: [...update.keywords] });
  }

  /** NodeRepo.markScannedStatement: a pass of `cycles` cycles ending at `cycle` scanned them. */
  markScanned(ids: readonly number[], cycles: number, cycle: number): void {
    for (const id of ids) {
      const node = this.nodeMap.get(id);
      if (node) this.nodeMap.set(id, { ...node, scanCount: node.scanCount + cycles, scannedCycle: cycle });
    }
  }

  /**
   * NodeRepo.scanPage: the next `limit` nodes in ascending (scan_count, id) after the cursor, not yet
   * scanned by `cycle`, focus nodes excluded. One linear pass keeping the smallest `limit`.
   */
  scanPage(cycle: number, cursor: { scanCount: number; id: number } | null, focus: ReadonlySet<number>, limit: number): MemoryNode[] {
    const before = (a: MemoryNode, b: MemoryNode) => a.scanCount < b.scanCount || (a.scanCount === b.scanCount && a.id < b.id);
    const page: MemoryNode[] = [];
    for (const node of this.nodeMap.values()) {
      if (node.scannedCycle >= cycle || focus.has(node.id)) continue;
      if (cursor && !(node.scanCount > cursor.scanCount || (node.scanCount === cursor.scanCount && node.id > cursor.id))) continue;
      if (page.length === limit) {
        const last = page[limit - 1];
        if (!last || !before(node, last)) continue;
        page.pop();
      }
      let i = page.length;
      for (let prev = page[i - 1]; prev !== undefined && before(node, prev); prev = page[i - 1]) i -= 1;
      page.splice(i, 0, node);
    }
    return page;
  }

  /** Deletes nodes and their outgoing links; links into them stay, dangling (seed 001 §5.3). */
  deleteNodes(ids: readonly number[]): void {
    for (const id of ids) {
      const node = this.nodeMap.get(id);
      if (node?.name != null && this.entities.get(node.name) === id) this.entities.delete(node.name);
      this.nodeMap.delete(id);
      for (const link of this.outgoing.get(id) ?? []) {
        this.byKey.delete(linkKey(link));
        remove(this.incoming, link.target, link);
      }
      this.outgoing.delete(id);
    }
  }

  /** The decay step's break: removes links whose level is below `belowLevel`. */
  breakBelow(belowLevel: number): void {
    for (const [key, link] of this.byKey) {
      if (link.level >= belowLevel) continue;
      this.byKey.delete(key);
      remove(this.outgoing, link.source, link);
      remove(this.incoming, link.target, link);
    }
  }

  /** LinkRepo.pinStatement: every link incident to `ids` below PINNED_LEVEL is pinned. */
  pin(ids: readonly number[]): void {
    for (const link of this.incidentTo(new Set(ids))) if (link.level < PINNED_LEVEL) link.level = PINNED_LEVEL;
  }

  /** LinkRepo.unpinStatement: links incident to `ids` whose other end is not in `stillFocused`. */
  unpin(ids: readonly number[], stillFocused: readonly number[], clock: number): void {
    const left = new Set(ids);
    const kept = new Set(stillFocused);
    for (const link of this.incidentTo(left)) {
      if ((left.has(link.source) && !kept.has(link.target)) || (left.has(link.target) && !kept.has(link.source))) link.level = clock;
    }
  }

  /** LinkRepo.incident: links with an end in `frontier`, optionally of the given relations. */
  incident(frontier: readonly number[], relations: readonly string[], clock: number): Edge[] {
    const allowed = relations.length > 0 ? new Set(relations) : undefined;
    const edges: Edge[] = [];
    for (const link of this.incidentTo(new Set(frontier))) {
      if (allowed && !allowed.has(link.relation)) continue;
      edges.push({ source: link.source, target: link.target, relation: link.relation, strength: strengthAt(link.level, clock) });
    }
    return edges;
  }

  /**
   * breadthFirst (src/memory/bfs.ts) over the in-memory links, without building an object per link:
   * the same reached nodes, depths, path strengths and dangling links. Instead of every link it
   * answers `about(entity)`: the reached nodes linked to it by `keepRelation` (what recall needs to
   * lend an entity's keyword hit), asked only for the few entities that match a keyword.
   */
  traverse(
    start: ReadonlyMap<number, number>,
    depth: number,
    relations: readonly string[],
    clock: number,
    keepRelation: string,
  ): BfsResult<MemoryNode> {
    const allowed = relations.length > 0 ? new Set(relations) : undefined;
    const reached = new Map<number, Reached<MemoryNode>>();
    for (const [id, strength] of start) {
      const node = this.nodeMap.get(id);
      if (node) reached.set(id, { node, depth: 0, pathStrength: strength });
    }
    const dangling: DanglingLink[] = [];
    let frontier = [...reached.keys()];
    for (let layer = 1; layer <= depth && frontier.length > 0; layer++) {
      const next = new Map<number, number>();
      const offer = (id: number, strength: number) => {
        if (reached.has(id)) return;
        const best = next.get(id);
        if (best === undefined || strength > best) next.set(id, strength);
      };
      for (const id of frontier) {
        const from = reached.get(id)?.pathStrength ?? 0;
        for (const link of this.outgoing.get(id) ?? []) {
          if (allowed && !allowed.has(link.relation)) continue;
          const strength = strengthAt(link.level, clock);
          if (this.nodeMap.has(link.target)) offer(link.target, from * strength);
          else dangling.push({ source: link.source, target: link.target, relation: link.relation, strength });
        }
        for (const link of this.incoming.get(id) ?? []) {
          if (allowed && !allowed.has(link.relation)) continue;
          offer(link.source, from * strengthAt(link.level, clock));
        }
      }
      for (const [id, pathStrength] of next) {
        const node = this.nodeMap.get(id);
        if (node) reached.set(id, { node, depth: layer, pathStrength });
      }
      frontier = [...next.keys()];
    }
    const about = (entityId: number): number[] => {
      if (allowed && !allowed.has(keepRelation)) return [];
      const ids = new Set<number>();
      for (const link of this.outgoing.get(entityId) ?? [])
        if (link.relation === keepRelation && reached.has(link.target)) ids.add(link.target);
      for (const link of this.incoming.get(entityId) ?? [])
        if (link.relation === keepRelation && reached.has(link.source)) ids.add(link.source);
      return [...ids];
    };
    return { reached, edges: [], dangling, about };
  }

  /** Outgoing links of a node (dangling ones included). */
  outgoingOf(id: number): readonly GraphLink[] {
    return this.outgoing.get(id) ?? [];
  }

  /** Every link, for consistency checks. */
  allLinks(): GraphLink[] {
    return [...this.byKey.values()];
  }

  private *incidentTo(ids: ReadonlySet<number>): Generator<GraphLink> {
    for (const id of ids) {
      yield* this.outgoing.get(id) ?? [];
      for (const link of this.incoming.get(id) ?? []) if (!ids.has(link.source)) yield link;
    }
  }
}

function linkKey(link: Pick<GraphLink, "source" | "target" | "relation">): string {
  return `${link.source}|${link.target}|${link.relation}`;
}

function push(adjacency: Map<number, GraphLink[]>, id: number, link: GraphLink): void {
  const list = adjacency.get(id);
  if (list) list.push(link);
  else adjacency.set(id, [link]);
}

function remove(adjacency: Map<number, GraphLink[]>, id: number, link: GraphLink): void {
  const list = adjacency.get(id);
  if (!list) return;
  const index = list.indexOf(link);
  if (index >= 0) list.splice(index, 1);
  if (list.length === 0) adjacency.delete(id);
}
