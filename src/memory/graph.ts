/**
 * An in-memory copy of one agent's network: its nodes and links, indexed both ways. The agent's
 * Durable Object is the only writer of the agent's rows, so after every committed D1 write it
 * applies the same change here; each method mirrors one storage statement exactly (see the
 * repositories in src/storage). BFS, importance, entity lookup and node counts then need no
 * database round trip (DESIGN §10: one agent's hot path lives in its Durable Object).
 */
import type { Edge } from "./bfs";
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
  private readonly outgoing = new Map<number, Map<string, GraphLink>>();
  private readonly incoming = new Map<number, Map<string, GraphLink>>();
  private links = 0;

  get nodeCount(): number {
    return this.nodeMap.size;
  }

  get linkCount(): number {
    return this.links;
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
    const key = `${link.target}|${link.relation}`;
    const out = this.outgoing.get(link.source) ?? new Map<string, GraphLink>();
    if (out.has(key)) return;
    out.set(key, { ...link });
    this.outgoing.set(link.source, out);
    const stored = out.get(key);
    if (!stored) return;
    const inc = this.incoming.get(link.target) ?? new Map<string, GraphLink>();
    inc.set(`${link.source}|${link.relation}`, stored);
    this.incoming.set(link.target, inc);
    this.links += 1;
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
      for (const link of this.outgoing.get(id)?.values() ?? []) this.dropIncoming(link);
      this.links -= this.outgoing.get(id)?.size ?? 0;
      this.outgoing.delete(id);
    }
  }

  /** The decay step's break: removes links whose level is below `belowLevel`. */
  breakBelow(belowLevel: number): void {
    for (const [source, out] of this.outgoing) {
      for (const [key, link] of out) {
        if (link.level >= belowLevel) continue;
        out.delete(key);
        this.dropIncoming(link);
        this.links -= 1;
      }
      if (out.size === 0) this.outgoing.delete(source);
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

  /** Outgoing links of a node (dangling ones included). */
  outgoingOf(id: number): GraphLink[] {
    return [...(this.outgoing.get(id)?.values() ?? [])];
  }

  /** Every link, for consistency checks. */
  allLinks(): GraphLink[] {
    return [...this.outgoing.values()].flatMap((out) => [...out.values()]);
  }

  private *incidentTo(ids: ReadonlySet<number>): Generator<GraphLink> {
    for (const id of ids) {
      yield* this.outgoing.get(id)?.values() ?? [];
      for (const link of this.incoming.get(id)?.values() ?? []) if (!ids.has(link.source)) yield link;
    }
  }

  private dropIncoming(link: GraphLink): void {
    const inc = this.incoming.get(link.target);
    inc?.delete(`${link.source}|${link.relation}`);
    if (inc?.size === 0) this.incoming.delete(link.target);
  }
}
