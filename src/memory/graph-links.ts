/**
 * The links of an agent's graph in memory (graph.ts): every link by its key, each node's outgoing
 * and incoming lists, and dense slots for the nodes that exist, so that a traversal marks what it
 * reached in typed arrays instead of Maps (a recall at 10k nodes visits ~170k link ends). A slot's
 * adjacency lists are the very arrays held by node, so they need no upkeep of their own; the
 * traversal's compact copy (adjacency.ts) is dropped by every change to the links and rebuilt from
 * the second traversal after it. Links hold their effective level (src/memory/strength.ts): pinned
 * while an end is in the focus, restarted at the release clock when it leaves. A wake's links stay
 * as the copy stored them until their first change (packed-links.ts).
 */
import { Adjacency, RelationCodes, traverseLists, type SlotLink, type Traversal } from "./adjacency";
import type { Edge } from "./bfs";
import { PackedLinkView, packedAll, packedBelow, packedLink, type PackedLinks } from "./packed-links";
import { PINNED_LEVEL, strengthAt } from "./strength";
import type { LinkKey, LinkRecord } from "../vocabulary/records";

/** A link as the graph holds it: its effective level (pinned links at PINNED_LEVEL). */
export type GraphLink = LinkRecord;
export type { PackedLinks };

/** A link as the graph holds it: with the slots of its ends (-1: that node does not exist). */
interface StoredLink extends GraphLink, SlotLink {}

export class GraphLinks {
  /**
   * Every link by "source|target|relation" (the unique key of the table); undefined after a bulk
   * load until a keyed use needs it (keyed()): a wake's first read does not wait for it.
   */
  private byKeyMap: Map<string, StoredLink> | undefined = new Map();
  /** The bulk load's links, in its order, until byKey is built from them. */
  private unkeyed: StoredLink[] = [];
  /** A wake's links as stored, read through `view` until the first change makes the objects (unpack). */
  private packed: { links: PackedLinks; view: PackedLinkView | undefined } | undefined;
  /** Links held (every link is in exactly one outgoing list, and in byKey once it is built; or packed). */
  private total = 0;
  /** Adjacency as arrays: traversals iterate them much faster than Map iterators. */
  private readonly outgoing = new Map<number, StoredLink[]>();
  private readonly incoming = new Map<number, StoredLink[]>();
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
   * No link's level is below this (a lower bound, lowered as links are added or released, raised
   * only by a full pass): the decay step of most cycles breaks nothing, and this tells it without
   * looking at every link.
   */
  private levelFloor = -Infinity;

  get count(): number {
    return this.total;
  }

  /** Whether the links are still as a wake loaded them, without link objects (packed-links.ts). */
  get isPacked(): boolean {
    return this.packed !== undefined;
  }

  /**
   * Links loaded in bulk from the object's copy of the network (src/engine/graph-snapshot.ts), kept
   * packed until a change needs them as add() stores them (unpack). Into a graph with links, one at
   * a time, through add().
   */
  load(links: PackedLinks): void {
    const count = links.count;
    if (this.total > 0) {
      for (let i = 0; i < count; i++) this.add(packedLink(links, i));
      return;
    }
    if (count === 0) return;
    this.changed();
    this.packed = { links, view: undefined };
    this.total = count;
    this.byKeyMap = undefined;
  }

  /** The packed links' view, built on first use; undefined when not packed or when it cannot be (then unpacked). */
  private view(): PackedLinkView | undefined {
    const packed = this.packed;
    if (!packed) return undefined;
    packed.view ??= PackedLinkView.build(packed.links, this.slotIds, this.relationCodes);
    if (!packed.view) this.unpack();
    return packed.view;
  }

  /** The link objects of a packed load, made as add() stores them, in the copy's order (before any change). */
  private unpack(): void {
    const packed = this.packed;
    if (!packed) return;
    this.packed = undefined;
    this.changed();
    const { count, sources, targets, relationCodes, relations, levels, created } = packed.links;
    const codes = relations.map((r) => this.relationCodes.code(r));
    const loaded: StoredLink[] = new Array<StoredLink>(count);
    for (let i = 0; i < count; i++) {
      const source = sources[i] ?? 0;
      const target = targets[i] ?? 0;
      const code = relationCodes[i] ?? 0;
      const level = levels[i] ?? 0;
      const stored: StoredLink = {
        source,
        target,
        relation: relations[code] ?? "",
        relationCode: codes[code] ?? 0,
        level,
        createdAt: created[i] ?? 0,
        sourceSlot: this.slotOf.get(source) ?? -1,
        targetSlot: this.slotOf.get(target) ?? -1,
      };
      listOf(this.outgoing, source).push(stored);
      listOf(this.incoming, target).push(stored);
      loaded[i] = stored;
    }
    this.unkeyed = loaded;
  }

  /**
   * The links by key, built in the order of the bulk load that left it for later (every change
   * that removes a link goes through here first, so all of them are still held).
   */
  private get byKey(): Map<string, StoredLink> {
    this.unpack();
    if (!this.byKeyMap) {
      this.byKeyMap = new Map(this.unkeyed.map((link) => [linkKey(link), link]));
      this.unkeyed = [];
    }
    return this.byKeyMap;
  }

  /** A node now exists: it gets a slot, and links that named it before it existed get that slot. */
  addNode(id: number): void {
    this.unpack();
    this.changed();
    const slot = this.freeSlots.pop() ?? this.slotIds.length;
    this.slotOf.set(id, slot);
    this.slotIds[slot] = id;
    this.slotOut[slot] = listOf(this.outgoing, id);
    this.slotIn[slot] = listOf(this.incoming, id);
    // Links may name a node before it exists (a mirror applies rows in any order).
    for (const link of this.slotOut[slot]) link.sourceSlot = slot;
    for (const link of this.slotIn[slot]) link.targetSlot = slot;
  }

  /** Nodes are gone: their outgoing links with them; links into them stay, dangling (docs/design.md, "The model"). */
  deleteNodes(ids: readonly number[]): void {
    // Every scan page calls this, mostly with nothing to delete: keep the traversal's copy then.
    if (ids.length === 0) return;
    this.unpack();
    this.changed();
    for (const id of ids) {
      const outgoing = new Set(this.outgoing.get(id) ?? []);
      this.total -= outgoing.size;
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

  /** INSERT … ON CONFLICT DO NOTHING on (source, target, relation). */
  add(link: GraphLink): void {
    const key = linkKey(link);
    if (this.byKey.has(key)) return;
    this.changed();
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
    this.total += 1;
    listOf(this.outgoing, link.source).push(stored);
    listOf(this.incoming, link.target).push(stored);
  }

  /** INSERT … ON CONFLICT DO UPDATE on (source, target, relation): the level is set. */
  set(link: GraphLink): void {
    this.unpack();
    const existing = this.byKey.get(linkKey(link));
    if (!existing) {
      this.add(link);
      return;
    }
    this.changed();
    existing.level = link.level;
    if (link.level < this.levelFloor) this.levelFloor = link.level;
  }

  /** The links whose level is below `belowLevel`: what the decay step breaks (pinned ones never). */
  below(belowLevel: number): LinkKey[] {
    if (this.levelFloor >= belowLevel) return [];
    if (this.packed) {
      const { keys, floor } = packedBelow(this.packed.links, belowLevel);
      this.levelFloor = floor;
      return keys;
    }
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
  delete(keys: readonly LinkKey[]): void {
    const doomed = new Set<StoredLink>();
    for (const key of keys) {
      const k = linkKey(key);
      const link = this.byKey.get(k);
      if (!link) continue;
      this.byKey.delete(k);
      doomed.add(link);
    }
    if (doomed.size === 0) return;
    this.total -= doomed.size;
    this.changed();
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
   * The focus changed: links incident to a node that `entered` it are pinned; links of the
   * `released` nodes restart at strength 1 at `clock` (level = clock), unless `focused` says their
   * other end is still in the focus.
   */
  refocus(entered: readonly number[], released: readonly number[], focused: (id: number) => boolean, clock: number): void {
    if (entered.length === 0 && released.length === 0) return;
    this.unpack();
    this.changed();
    this.forEachIncident(new Set(entered), (link) => (link.level = PINNED_LEVEL));
    this.forEachIncident(new Set(released), (link) => {
      if (!focused(link.source) && !focused(link.target)) link.level = clock;
    });
    if (released.length > 0 && clock < this.levelFloor) this.levelFloor = clock;
  }

  /** LinkRepo.incident: links with an end in `frontier`, optionally of the given relations. */
  incident(frontier: readonly number[], relations: readonly string[], clock: number): Edge[] {
    const view = this.viewOf(frontier);
    if (view) return view.incident(new Set(frontier), relations, clock);
    const allowed = relations.length > 0 ? new Set(relations) : undefined;
    const edges: Edge[] = [];
    this.forEachIncident(new Set(frontier), (link) => {
      if (allowed && !allowed.has(link.relation)) return;
      edges.push({ source: link.source, target: link.target, relation: link.relation, strength: strengthAt(link.level, clock) });
    });
    return edges;
  }

  /**
   * The traversal from `start` (node id → strength) over the slots: reached slots with their
   * layers and path strengths (adjacency.ts), and `idOf` to name them. The compact copy pays off
   * from the second traversal after a change (traverseLists).
   */
  traverse(
    start: ReadonlyMap<number, number>,
    depth: number,
    relations: readonly string[],
    clock: number,
  ): Traversal & { idOf(slot: number): number } {
    const startSlots = new Map<number, number>();
    for (const [id, strength] of start) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined && !startSlots.has(slot)) startSlots.set(slot, strength);
    }
    this.adjacency ??= this.view()?.adjacency;
    if (!this.adjacency && this.traversedSinceChange) this.adjacency = Adjacency.build(this.slotOut, this.slotIn, this.relationCodes);
    this.traversedSinceChange = true;
    const traversal = this.adjacency
      ? this.adjacency.traverse(startSlots, depth, relations, clock)
      : traverseLists(this.slotOut, this.slotIn, startSlots, depth, relations, clock);
    return { ...traversal, idOf: (slot) => this.slotIds[slot] ?? -1 };
  }

  /** The nodes linked to `id` by `relation`, either way, that `keep` accepts, each once. */
  linkedBy(id: number, relation: string, keep: (other: number) => boolean): number[] {
    const view = this.viewOf([id]);
    if (view) return view.linkedBy(id, relation, keep);
    const ids = new Set<number>();
    for (const link of this.outgoing.get(id) ?? []) if (link.relation === relation && keep(link.target)) ids.add(link.target);
    for (const link of this.incoming.get(id) ?? []) if (link.relation === relation && keep(link.source)) ids.add(link.source);
    return [...ids];
  }

  /** A node's outgoing links, then its incoming ones (a link to itself once). */
  of(id: number): GraphLink[] {
    const view = this.viewOf([id]);
    if (view) return view.of(id);
    const incoming = (this.incoming.get(id) ?? []).filter((l) => l.source !== id);
    return [...(this.outgoing.get(id) ?? []), ...incoming];
  }

  /** Outgoing links of a node (dangling ones included). */
  outgoingOf(id: number): readonly GraphLink[] {
    const view = this.view();
    if (view) return view.outgoingOf(id);
    return this.outgoing.get(id) ?? [];
  }

  /** Every link. */
  all(): GraphLink[] {
    if (this.packed) return packedAll(this.packed.links);
    return [...this.byKey.values()];
  }

  /**
   * The packed view when every id is a node; else the links are unpacked (the lists of an id that
   * is no node, links into a deleted one, are kept only by the link objects) and undefined.
   */
  private viewOf(ids: readonly number[]): PackedLinkView | undefined {
    const view = this.view();
    if (view && ids.every((id) => view.has(id))) return view;
    this.unpack();
    return undefined;
  }

  /** The traversal's compact copy is stale: drop it (rebuilt from the second traversal on). */
  private changed(): void {
    this.adjacency = undefined;
    this.traversedSinceChange = false;
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
