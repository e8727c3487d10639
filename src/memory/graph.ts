/**
 * An in-memory copy of one agent's network: its nodes and links, indexed both ways. The agent's
 * Durable Object is the only writer of the agent's rows, so after every committed D1 write it
 * applies the same operations here (the graph column of src/engine/write-table.ts). BFS, importance,
 * entity lookup and node counts then need no database round trip (docs/design.md, "Scale and limits": one agent's hot
 * path lives in its Durable Object). The links, their slots and the traversal over them are
 * graph-links.ts; nodes, entities, aliases, the focus and the full-text index are here.
 */
import type { BfsResult, Edge, Reached } from "./bfs";
import { GraphLinks, type GraphLink, type PackedLinks } from "./graph-links";
import { matchesFilter, type LinkKey, type MemoryNode, type NodeFilter } from "../vocabulary/records";
import { Bm25Index } from "../search/bm25-index";
import { EntityNames } from "./entity-names";
import { ftsDocument } from "../search/fts-text";
import { PINNED_LEVEL } from "./strength";
import type { NewLink, TextUpdate } from "../vocabulary/records";

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
  private readonly links = new GraphLinks();
  /**
   * Full-text search with this agent's own BM25 statistics (and recall's term lookups), built on
   * first use, then kept in step with the nodes.
   */
  private fullText: Bm25Index | undefined;

  get nodeCount(): number {
    return this.nodeMap.size;
  }

  get linkCount(): number {
    return this.links.count;
  }

  node(id: number): MemoryNode | undefined {
    return this.nodeMap.get(id);
  }

  nodeIds(): number[] {
    return [...this.nodeMap.keys()];
  }

  /** The nodes a filter selects (`{ kind: "episode" }`), newest (highest id) first, at most `limit`; only those `accept`ed when given. */
  find(filter: NodeFilter, limit: number, accept?: (node: MemoryNode) => boolean): MemoryNode[] {
    const out: MemoryNode[] = [];
    for (const node of this.nodeMap.values()) if (matchesFilter(node, filter) && (!accept || accept(node))) out.push(node);
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

  /** The focus and the aliases as the graph holds them (its snapshot, src/engine/graph-snapshot.ts). */
  focusIds(): number[] {
    return [...this.focused];
  }

  aliasEntries(): [string, number][] {
    return this.names.aliasEntries();
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
    for (const link of links) this.links.add(this.materialise(link));
  }

  /** Links created, or an existing link's level set (INSERT … ON CONFLICT DO UPDATE). */
  setLinks(links: readonly NewLink[]): void {
    for (const link of links) this.links.set(this.materialise(link));
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

  /** A new link's level as the graph holds it: pinned when an end is in the focus. */
  private materialise(link: NewLink): GraphLink {
    const level = this.focused.has(link.source) || this.focused.has(link.target) ? PINNED_LEVEL : link.level;
    return { source: link.source, target: link.target, relation: link.relation, level, createdAt: link.createdAt };
  }

  /** INSERT … ON CONFLICT DO NOTHING: an existing node (same id or entity key) is kept. */
  addNode(node: MemoryNode): void {
    if (this.nodeMap.has(node.id)) return;
    if (node.name !== null && this.names.hasEntity(node.name)) return;
    this.nodeMap.set(node.id, node);
    if (node.name !== null) this.names.addEntity(node.name, node.id);
    this.fullText?.add(node.id, ftsDocument(node));
    this.links.addNode(node.id);
  }

  /** INSERT … ON CONFLICT DO NOTHING on (source, target, relation). */
  addLink(link: GraphLink): void {
    this.links.add(link);
  }

  /** The links of the object's copy of the network, in bulk (a wake: graph-links.ts, load). */
  loadLinks(links: PackedLinks): void {
    this.links.load(links);
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
    // Every scan page calls this, mostly with nothing to delete.
    if (ids.length === 0) return;
    this.names.deleteNodes(new Map(ids.map((id) => [id, this.nodeMap.get(id)?.name ?? null])));
    for (const id of ids) {
      this.nodeMap.delete(id);
      this.fullText?.remove(id);
    }
    this.links.deleteNodes(ids);
  }

  /** The links whose level is below `belowLevel`: what the decay step breaks (pinned ones never). */
  linksBelow(belowLevel: number): LinkKey[] {
    return this.links.below(belowLevel);
  }

  /** Links removed (DELETE by key; keys that are gone are skipped). */
  deleteLinks(keys: readonly LinkKey[]): void {
    this.links.delete(keys);
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
    this.links.refocus(entered, released, (id) => this.focused.has(id), clock);
  }

  /** LinkRepo.incident: links with an end in `frontier`, optionally of the given relations. */
  incident(frontier: readonly number[], relations: readonly string[], clock: number): Edge[] {
    return this.links.incident(frontier, relations, clock);
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
    const { order, layerOf, best, dangling, idOf } = this.links.traverse(start, depth, relations, clock);
    const reached = new Map<number, Reached<MemoryNode>>();
    for (const slot of order) {
      const id = idOf(slot);
      const node = this.nodeMap.get(id);
      if (node) reached.set(id, { node, depth: (layerOf[slot] ?? 1) - 1, pathStrength: best[slot] ?? 0 });
    }
    const about = (entityId: number): number[] => {
      if (allowed && !allowed.has(keepRelation)) return [];
      return this.links.linkedBy(entityId, keepRelation, (id) => reached.has(id));
    };
    return { reached, edges: [], dangling, about };
  }

  /** The BM25 index of the nodes as a copy of the network stored it (a wake: src/engine/graph-snapshot.ts). */
  useTextIndex(index: Bm25Index): void {
    this.fullText = index;
  }

  /** The nodes' BM25 index over their full-text terms (built on the first call). */
  textIndex(): Bm25Index {
    this.fullText ??= Bm25Index.of([...this.nodeMap.values()].map((node) => [node.id, ftsDocument(node)] as const));
    return this.fullText;
  }

  /** A node's outgoing links, then its incoming ones (a link to itself once). */
  linksOf(id: number): GraphLink[] {
    return this.links.of(id);
  }

  /** Outgoing links of a node (dangling ones included). */
  outgoingOf(id: number): readonly GraphLink[] {
    return this.links.outgoingOf(id);
  }

  /** Every link, for consistency checks. */
  allLinks(): GraphLink[] {
    return this.links.all();
  }
}
