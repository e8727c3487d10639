/**
 * An in-memory copy of one agent's network: its nodes and links, indexed both ways. The agent's
 * Durable Object is the only writer of the agent's rows, so after every committed D1 write it
 * applies the same operations here (the graph column of src/engine/write-table.ts). BFS, importance,
 * entity lookup and node counts then need no database round trip (docs/design.md, "Scale and limits": one agent's hot
 * path lives in its Durable Object). Links hold their effective level (src/memory/strength.ts):
 * pinned while an end is in the focus, restarted at the release clock when it leaves.
 */
import { Adjacency, RelationCodes, traverseLists, type SlotLink } from "./adjacency";
import type { BfsResult, Edge, Reached } from "./bfs";
import type { NodeKind } from "../vocabulary/node-kinds";
import type { LinkKey, LinkRecord, MemoryNode } from "../vocabulary/records";
import { Bm25Index } from "../search/bm25-index";
import { EntityNames } from "./entity-names";
import { ftsDocument } from "../search/fts-text";
import { PINNED_LEVEL, strengthAt } from "./strength";
import type { NewLink, TextUpdate } from "../vocabulary/records";

/** A link as the graph holds it: its effective level (pinned links at PINNED_LEVEL). */
export type GraphLink = LinkRecord;

/** A node's fields that neither the entity map nor the full-text index reads. */
export type UnindexedFields = Partial<
  Omit<MemoryNode, "id" | "kind" | "name" | "content" | "phrase" | "keywords" | "speaker" | "messageTime">
>;

export class MemoryGraph {
  /** The focus nodes: every link incident to one is pinned (docs/design.md, "The model"). */
  private readonly focused = new Set<number>();
  private readonly nodeMap = new Map<number, MemoryNode>();
  /** Entity keys and alias keys (docs/design.md, "Memory operations"): another name leads to the entity that absorbed it. */
  private readonly names = new EntityNames();
  /** Every link by "source|target|relation" (the unique key of the table). */
  private readonly byKey = new Map<string, StoredLink>();
  /** Adjacency as arrays: traversals iterate them much faster than Map iterators. */
  private readonly outgoing = new Map<number, StoredLink[]>();
  private readonly incoming = new Map<number, StoredLink[]>();
  /**
   * Dense slots for the nodes that exist, so that a traversal marks what it reached in typed arrays
   * instead of Maps (a recall at 10k nodes visits ~170k link ends). A slot's adjacency lists are
   * the very arrays held in `outgoing`/`incoming`, so they need no upkeep of their own.
   */
  private readonly slotOf = new Map<number, number>();
  private readonly slotIds: number[] = [];
  private readonly freeSlots: number[] = [];
  private readonly slotOut: StoredLink[][] = [];
  private readonly slotIn: StoredLink[][] = [];
  private readonly relationCodes = new RelationCodes();
  /** The traversal's compact copy of the links; dropped by every change to them. */
  private adjacency: Adjacency | undefined;
  private traversedSinceChange = false;
  /**
   * Full-text search with this agent's own BM25 statistics (and recall's term lookups), built on
   * first use, then kept in step with the nodes.
   */
  private fullText: Bm25Index | undefined;
  /**
   * No link's level is below this (a lower bound, lowered as links are added or released, raised
   * only by a full pass): the decay step of most cycles breaks nothing, and this tells it without
   * looking at every link.
   */
  private levelFloor = -Infinity;

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

  /** Nodes of one kind, newest (highest id) first, at most `limit`. */
  ofKind(kind: NodeKind, limit: number): MemoryNode[] {
    const out: MemoryNode[] = [];
    for (const node of this.nodeMap.values()) if (node.kind === kind) out.push(node);
    return out.sort((a, b) => b.id - a.id).slice(0, limit);
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

  /** The entity stored under `key`, or the one an alias `key` leads to. */
  entityId(key: string): number | undefined {
    return this.names.lookup(key);
  }

  /** An alias loaded with the graph (later ones come through addAliases operations). */
  addAlias(key: string, nodeId: number): void {
    this.names.addAlias(key, nodeId);
  }

  /** Aliases removed by key (a purge: names only purged memories used). */
  deleteAliases(keys: readonly string[]): void {
    this.names.deleteAliases(keys);
  }

  /** The focus as loaded with the graph (later changes come through setFocus operations). */
  setInitialFocus(ids: readonly number[]): void {
    this.focused.clear();
    for (const id of ids) this.focused.add(id);
  }

  /**
   * The writes below are the graph's column of the write table (src/engine/write-table.ts): each
   * applies a committed network write exactly as the storage applied it, so the copy follows every
   * kind of write by construction. The object's bookkeeping (clock, counters, scans) never comes here.
   */

  /** New links (INSERT … ON CONFLICT DO NOTHING): pinned when an end is in the focus. */
  createLinks(links: readonly NewLink[]): void {
    for (const link of links) this.addLink(this.materialise(link));
  }

  /** Links created, or an existing link's level set (INSERT … ON CONFLICT DO UPDATE). */
  setLinks(links: readonly NewLink[]): void {
    for (const link of links) this.setLink(this.materialise(link));
  }

  /** Fields of a node that no index of the graph reads (a correction, a flag), set in place. */
  patchNode(id: number, fields: UnindexedFields): void {
    const node = this.nodeMap.get(id);
    if (node) this.nodeMap.set(id, { ...node, ...fields });
  }

  /** Everything goes: nodes, links, the focus (an agent's purge). */
  purge(): void {
    this.deleteNodes(this.nodeIds());
    this.deleteLinks(this.allLinks());
    this.focused.clear();
  }

  /** INSERT … ON CONFLICT DO UPDATE on (source, target, relation): the level is set. */
  private setLink(link: GraphLink): void {
    const existing = this.byKey.get(linkKey(link));
    if (!existing) {
      this.addLink(link);
      return;
    }
    this.linksChanged();
    existing.level = link.level;
    if (link.level < this.levelFloor) this.levelFloor = link.level;
  }

  /** A new link's level as the graph holds it: pinned when an end is in the focus. */
  private materialise(link: NewLink): GraphLink {
    const level = this.focused.has(link.source) || this.focused.has(link.target) ? PINNED_LEVEL : link.level;
    return { source: link.source, target: link.target, relation: link.relation, level, createdAt: link.createdAt };
  }

  /** INSERT … ON CONFLICT DO NOTHING: an existing node (same id or entity key) is kept. */
  addNode(node: MemoryNode): void {
    if (this.nodeMap.has(node.id)) return;
    if (node.name !== null && this.names.hasEntity(node.name)) return;
    this.linksChanged();
    this.nodeMap.set(node.id, node);
    if (node.name !== null) this.names.addEntity(node.name, node.id);
    this.fullText?.add(node.id, ftsDocument(node));
    const slot = this.freeSlots.pop() ?? this.slotIds.length;
    this.slotOf.set(node.id, slot);
    this.slotIds[slot] = node.id;
    this.slotOut[slot] = listOf(this.outgoing, node.id);
    this.slotIn[slot] = listOf(this.incoming, node.id);
    // Links may name a node before it exists (a mirror applies rows in any order).
    for (const link of this.slotOut[slot]) link.sourceSlot = slot;
    for (const link of this.slotIn[slot]) link.targetSlot = slot;
  }

  /** INSERT … ON CONFLICT DO NOTHING on (source, target, relation). */
  addLink(link: GraphLink): void {
    const key = linkKey(link);
    if (this.byKey.has(key)) return;
    this.linksChanged();
    // One literal shape for every link keeps the traversal's property reads monomorphic.
    if (link.level < this.levelFloor) this.levelFloor = link.level;
    const stored: StoredLink = {
      source: link.source,
      target: link.target,
      relation: link.relation,
      relationCode: this.relationCodes.code(link.relation),
      level: link.level,
      createdAt: link.createdAt,
      sourceSlot: this.slotOf.get(link.source) ?? -1,
      targetSlot: this.slotOf.get(link.target) ?? -1,
    };
    this.byKey.set(key, stored);
    listOf(this.outgoing, link.source).push(stored);
    listOf(this.incoming, link.target).push(stored);
  }

  /** A node's content replaced by its compression. */
  updateText(update: TextUpdate): void {
    const node = this.nodeMap.get(update.id);
    if (!node) return;
    const updated = { ...node, content: update.content, phrase: update.phrase, keywords: [...update.keywords] };
    this.nodeMap.set(update.id, updated);
    this.fullText?.add(update.id, ftsDocument(update));
  }

  /**
   * Deletes nodes, their outgoing links and the aliases that lead to them; links into them stay,
   * dangling (docs/design.md, "The model").
   */
  deleteNodes(ids: readonly number[]): void {
    // Every scan page calls this, mostly with nothing to delete: keep the traversal's copy then.
    if (ids.length === 0) return;
    this.linksChanged();
    this.names.deleteNodes(new Map(ids.map((id) => [id, this.nodeMap.get(id)?.name ?? null])));
    for (const id of ids) {
      this.nodeMap.delete(id);
      this.fullText?.remove(id);
      const outgoing = new Set(this.outgoing.get(id) ?? []);
      for (const link of outgoing) this.byKey.delete(linkKey(link));
      this.removeFromLists(outgoing, false);
      this.outgoing.delete(id);
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      for (const link of this.slotIn[slot] ?? []) link.targetSlot = -1;
      this.slotOf.delete(id);
      this.slotIds[slot] = -1;
      this.slotOut[slot] = [];
      this.slotIn[slot] = [];
      this.freeSlots.push(slot);
    }
  }

  /** The links whose level is below `belowLevel`: what the decay step breaks (pinned ones never). */
  linksBelow(belowLevel: number): LinkKey[] {
    if (this.levelFloor >= belowLevel) return [];
    const keys: LinkKey[] = [];
    let floor = Infinity;
    for (const link of this.byKey.values()) {
      if (link.level < belowLevel) keys.push({ source: link.source, target: link.target, relation: link.relation });
      if (link.level < floor) floor = link.level;
    }
    this.levelFloor = floor;
    return keys;
  }

  /** Links removed (DELETE by key; keys that are gone are skipped). */
  deleteLinks(keys: readonly LinkKey[]): void {
    const doomed = new Set<StoredLink>();
    for (const key of keys) {
      const k = linkKey(key);
      const link = this.byKey.get(k);
      if (!link) continue;
      this.byKey.delete(k);
      doomed.add(link);
    }
    if (doomed.size === 0) return;
    this.linksChanged();
    this.removeFromLists(doomed, true);
  }

  /**
   * Takes `doomed` out of the adjacency lists of their ends (incoming only, or both), each list
   * filtered once: removing a hub's links one by one searched its whole list for each (quadratic
   * in a superseded or decayed memory's links, measured). Order is kept: traversals read it.
   */
  private removeFromLists(doomed: ReadonlySet<StoredLink>, outgoing: boolean): void {
    const lists = new Set<StoredLink[]>();
    for (const link of doomed) {
      const into = this.incoming.get(link.target);
      if (into) lists.add(into);
      const from = outgoing ? this.outgoing.get(link.source) : undefined;
      if (from) lists.add(from);
    }
    for (const list of lists) removeAll(list, doomed);
  }

  /**
   * The focus is now `focus`: links incident to a node that entered it are pinned; links of the
   * `released` nodes restart at strength 1 at `clock` (level = clock), unless their other end is
   * still in the focus.
   */
  setFocus(focus: readonly number[], released: readonly number[], clock: number): void {
    const entered = focus.filter((id) => !this.focused.has(id));
    this.focused.clear();
    for (const id of focus) this.focused.add(id);
    if (entered.length > 0 || released.length > 0) this.linksChanged();
    this.forEachIncident(new Set(entered), (link) => (link.level = PINNED_LEVEL));
    this.forEachIncident(new Set(released), (link) => {
      if (!this.focused.has(link.source) && !this.focused.has(link.target)) link.level = clock;
    });
    if (released.length > 0 && clock < this.levelFloor) this.levelFloor = clock;
  }

  /** LinkRepo.incident: links with an end in `frontier`, optionally of the given relations. */
  incident(frontier: readonly number[], relations: readonly string[], clock: number): Edge[] {
    const allowed = relations.length > 0 ? new Set(relations) : undefined;
    const edges: Edge[] = [];
    this.forEachIncident(new Set(frontier), (link) => {
      if (allowed && !allowed.has(link.relation)) return;
      edges.push({ source: link.source, target: link.target, relation: link.relation, strength: strengthAt(link.level, clock) });
    });
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
    const startSlots = new Map<number, number>();
    for (const [id, strength] of start) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined && !startSlots.has(slot)) startSlots.set(slot, strength);
    }
    // The compact copy pays off from the second traversal after a change (traverseLists).
    if (!this.adjacency && this.traversedSinceChange) this.adjacency = Adjacency.build(this.slotOut, this.slotIn, this.relationCodes);
    this.traversedSinceChange = true;
    const { order, layerOf, best, dangling } = this.adjacency
      ? this.adjacency.traverse(startSlots, depth, relations, clock)
      : traverseLists(this.slotOut, this.slotIn, startSlots, depth, relations, clock);
    const reached = new Map<number, Reached<MemoryNode>>();
    for (const slot of order) {
      const id = this.slotIds[slot] ?? -1;
      const node = this.nodeMap.get(id);
      if (node) reached.set(id, { node, depth: (layerOf[slot] ?? 1) - 1, pathStrength: best[slot] ?? 0 });
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

  /** The nodes' BM25 index over their full-text terms (built on the first call). */
  textIndex(): Bm25Index {
    if (!this.fullText) {
      this.fullText = new Bm25Index();
      for (const node of this.nodeMap.values()) this.fullText.add(node.id, ftsDocument(node));
    }
    return this.fullText;
  }

  /** The traversal's compact copy is stale: drop it (rebuilt from the second traversal on). */
  private linksChanged(): void {
    this.adjacency = undefined;
    this.traversedSinceChange = false;
  }

  /** A node's outgoing links, then its incoming ones (a link to itself once). */
  linksOf(id: number): GraphLink[] {
    const incoming = (this.incoming.get(id) ?? []).filter((l) => l.source !== id);
    return [...(this.outgoing.get(id) ?? []), ...incoming];
  }

  /** Outgoing links of a node (dangling ones included). */
  outgoingOf(id: number): readonly GraphLink[] {
    return this.outgoing.get(id) ?? [];
  }

  /** Every link, for consistency checks. */
  allLinks(): GraphLink[] {
    return [...this.byKey.values()];
  }

  /** Each link with an end in `ids`, once (a callback, not a generator: a hub has thousands). */
  private forEachIncident(ids: ReadonlySet<number>, visit: (link: GraphLink) => void): void {
    for (const id of ids) {
      for (const link of this.outgoing.get(id) ?? []) visit(link);
      for (const link of this.incoming.get(id) ?? []) if (!ids.has(link.source)) visit(link);
    }
  }
}

function linkKey(link: Pick<GraphLink, "source" | "target" | "relation">): string {
  return `${link.source}|${link.target}|${link.relation}`;
}

/** A link as the graph holds it: with the slots of its ends (-1: that node does not exist). */
interface StoredLink extends GraphLink, SlotLink {}

/** The node's adjacency list, created empty if needed (kept when emptied: a slot may share it). */
function listOf(adjacency: Map<number, StoredLink[]>, id: number): StoredLink[] {
  let list = adjacency.get(id);
  if (!list) {
    list = [];
    adjacency.set(id, list);
  }
  return list;
}

/** Removes every element of `doomed` from `list` in place (the array may be shared with a slot). */
function removeAll(list: StoredLink[], doomed: ReadonlySet<StoredLink>): void {
  let kept = 0;
  for (const link of list) if (!doomed.has(link)) list[kept++] = link;
  list.length = kept;
}
