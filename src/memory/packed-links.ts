/**
 * The links of a graph just woken from the object's copy (src/engine/graph-snapshot.ts), read as
 * stored: the copy's arrays, grouped by slot into one compact adjacency (adjacency.ts) whose
 * entries name the link they came from. A wake's first reads (a traversal, a node's links, the
 * links below a level) answer from it without making an object per link; the first change to the
 * links makes the objects, in the order the copy holds them (graph-links.ts, unpack), and this is
 * dropped. Every answer is the one the link objects give (test/unit/memory/packed-links.test.ts).
 */
import { Adjacency, DANGLING, type RelationCodes } from "./adjacency";
import type { Edge } from "./bfs";
import { strengthAt } from "./strength";
import type { LinkKey, LinkRecord } from "../vocabulary/records";

/** A link as the graph holds it (graph-links.ts' GraphLink). */
type GraphLink = LinkRecord;

/** Links as arrays (the object's copy of the network): link i is (sources[i], targets[i], relations[relationCodes[i]], …). */
export interface PackedLinks {
  count: number;
  sources: Int32Array;
  targets: Int32Array;
  relationCodes: Uint16Array;
  relations: readonly string[];
  levels: Float64Array;
  created: Float64Array;
}

export class PackedLinkView {
  private constructor(
    private readonly links: PackedLinks,
    /** Slot of a node id (-1: no such node). */
    private readonly slotOf: (id: number) => number,
    /** Per slot, where its entries start; its outgoing entries end at outEnds[slot]. */
    private readonly offsets: Int32Array,
    private readonly outEnds: Int32Array,
    /** Per entry, the index of its link in the copy's arrays. */
    private readonly entries: Int32Array,
    readonly adjacency: Adjacency,
  ) {}

  /** Each node's outgoing links once asked for (outgoingOf). */
  private readonly outgoing = new Map<number, readonly GraphLink[]>();

  /**
   * The view over `links`, whose ends are nodes at the slots `slotIds` names (-1: a free slot);
   * undefined when a link's source is no node (the link objects handle that case: a copy never holds one).
   */
  static build(links: PackedLinks, slotIds: readonly number[], relationCodes: RelationCodes): PackedLinkView | undefined {
    const slots = slotIds.length;
    const slotOf = slotLookup(slotIds);
    const { count, sources, targets, relationCodes: codes, relations, levels } = links;
    const graphCode = relations.map((r) => relationCodes.code(r));
    const sourceSlots = new Int32Array(count);
    const targetSlots = new Int32Array(count);
    const outCounts = new Int32Array(slots);
    const inCounts = new Int32Array(slots);
    for (let i = 0; i < count; i++) {
      const s = slotOf(sources[i] ?? 0);
      if (s < 0) return undefined;
      const t = slotOf(targets[i] ?? 0);
      sourceSlots[i] = s;
      targetSlots[i] = t;
      outCounts[s] = (outCounts[s] ?? 0) + 1;
      if (t >= 0) inCounts[t] = (inCounts[t] ?? 0) + 1;
    }
    // Per slot its outgoing links, then its incoming ones, each in the copy's order: the order of
    // the link objects' lists, so traversals, dangling links and lists come out the same.
    const offsets = new Int32Array(slots + 1);
    const outEnds = new Int32Array(slots);
    let size = 0;
    for (let slot = 0; slot < slots; slot++) {
      offsets[slot] = size;
      outEnds[slot] = size + (outCounts[slot] ?? 0);
      size += (outCounts[slot] ?? 0) + (inCounts[slot] ?? 0);
    }
    offsets[slots] = size;
    const outAt = offsets.slice(0, slots);
    const inAt = outEnds.slice();
    const entries = new Int32Array(size);
    const neighbours = new Int32Array(size);
    const entryLevels = new Float64Array(size);
    const entryCodes = new Uint16Array(size);
    for (let i = 0; i < count; i++) {
      const s = sourceSlots[i] ?? 0;
      const t = targetSlots[i] ?? -1;
      const level = levels[i] ?? 0;
      const code = graphCode[codes[i] ?? 0] ?? 0;
      const out = outAt[s] ?? 0;
      outAt[s] = out + 1;
      entries[out] = i;
      neighbours[out] = t >= 0 ? t : DANGLING;
      entryLevels[out] = level;
      entryCodes[out] = code;
      if (t < 0) continue;
      const into = inAt[t] ?? 0;
      inAt[t] = into + 1;
      entries[into] = i;
      neighbours[into] = s;
      entryLevels[into] = level;
      entryCodes[into] = code;
    }
    const linkAt = (e: number) => {
      const i = entries[e];
      return i === undefined ? undefined : packedLink(links, i);
    };
    const adjacency = new Adjacency(offsets, neighbours, entryLevels, entryCodes, linkAt, relationCodes);
    return new PackedLinkView(links, slotOf, offsets, outEnds, entries, adjacency);
  }

  private link(i: number): GraphLink {
    return packedLink(this.links, i);
  }

  /** Whether `id` is a node (the lists of an id that is no node are the link objects' to answer). */
  has(id: number): boolean {
    return this.slotOf(id) >= 0;
  }

  /** A node's entries: outgoing links at entries[start … split), incoming at entries[split … end) (ids that are nodes). */
  private range(id: number): { start: number; split: number; end: number } {
    const slot = this.slotOf(id);
    return { start: this.offsets[slot] ?? 0, split: this.outEnds[slot] ?? 0, end: this.offsets[slot + 1] ?? 0 };
  }

  /**
   * A node's outgoing links (dangling ones included); [] for an id that is no node. Made once per
   * node and kept (the links do not change while packed): recall asks for thousands per call.
   */
  outgoingOf(id: number): readonly GraphLink[] {
    const known = this.outgoing.get(id);
    if (known) return known;
    const list: GraphLink[] = [];
    if (this.has(id)) {
      const { start, split } = this.range(id);
      for (let e = start; e < split; e++) list.push(this.link(this.entries[e] ?? 0));
    }
    this.outgoing.set(id, list);
    return list;
  }

  /** A node's outgoing links, then its incoming ones (a link to itself once). */
  of(id: number): GraphLink[] {
    const { split, end } = this.range(id);
    const out = [...this.outgoingOf(id)];
    for (let e = split; e < end; e++) {
      const i = this.entries[e] ?? 0;
      if (this.links.sources[i] !== id) out.push(this.link(i));
    }
    return out;
  }

  /** Links with an end in `frontier` (each a node), each once, as edges at `clock`. */
  incident(frontier: ReadonlySet<number>, relations: readonly string[], clock: number): Edge[] {
    const { sources, targets, relationCodes, relations: names, levels } = this.links;
    const allowed = relations.length > 0 ? names.map((name) => relations.includes(name)) : undefined;
    const edges: Edge[] = [];
    for (const id of frontier) {
      const { start, split, end } = this.range(id);
      for (let e = start; e < end; e++) {
        const i = this.entries[e] ?? 0;
        const source = sources[i] ?? 0;
        if (e >= split && frontier.has(source)) continue;
        const code = relationCodes[i] ?? 0;
        if (allowed && !allowed[code]) continue;
        edges.push({ source, target: targets[i] ?? 0, relation: names[code] ?? "", strength: strengthAt(levels[i] ?? 0, clock) });
      }
    }
    return edges;
  }

  /** The nodes linked to `id` (a node) by `relation`, either way, that `keep` accepts, each once. */
  linkedBy(id: number, relation: string, keep: (other: number) => boolean): number[] {
    const { sources, targets, relationCodes, relations } = this.links;
    const code = relations.indexOf(relation);
    const ids = new Set<number>();
    if (code < 0) return [];
    const { start, split, end } = this.range(id);
    for (let e = start; e < end; e++) {
      const i = this.entries[e] ?? 0;
      if (relationCodes[i] !== code) continue;
      const other = e < split ? (targets[i] ?? 0) : (sources[i] ?? 0);
      if (keep(other)) ids.add(other);
    }
    return [...ids];
  }
}

/** The links below `belowLevel`, in the copy's order, and the lowest level held (no view needed). */
export function packedBelow(links: PackedLinks, belowLevel: number): { keys: LinkKey[]; floor: number } {
  const keys: LinkKey[] = [];
  let floor = Infinity;
  for (let i = 0; i < links.count; i++) {
    const level = links.levels[i] ?? 0;
    if (level < belowLevel) {
      const { source, target, relation } = packedLink(links, i);
      keys.push({ source, target, relation });
    }
    if (level < floor) floor = level;
  }
  return { keys, floor };
}

/** Every link, in the copy's order (no view needed). */
export function packedAll(links: PackedLinks): GraphLink[] {
  return Array.from({ length: links.count }, (_, i) => packedLink(links, i));
}

/** Link i of packed links, as the graph holds links. */
export function packedLink(links: PackedLinks, i: number): GraphLink {
  const { sources, targets, relationCodes, relations, levels, created } = links;
  return {
    source: sources[i] ?? 0,
    target: targets[i] ?? 0,
    relation: relations[relationCodes[i] ?? 0] ?? "",
    level: levels[i] ?? 0,
    createdAt: created[i] ?? 0,
  };
}

/** Slot of a node id (-1: no node): an array by id where ids are dense (a copy's are), else a map. */
function slotLookup(slotIds: readonly number[]): (id: number) => number {
  let maxId = -1;
  for (const id of slotIds) if (id > maxId) maxId = id;
  if (maxId < 8 * slotIds.length + 65_536) {
    const byId = new Int32Array(maxId + 1).fill(-1);
    slotIds.forEach((id, slot) => {
      if (id >= 0) byId[id] = slot;
    });
    return (id) => (id >= 0 && id <= maxId ? (byId[id] ?? -1) : -1);
  }
  const byId = new Map<number, number>();
  slotIds.forEach((id, slot) => {
    if (id >= 0) byId.set(id, slot);
  });
  return (id) => byId.get(id) ?? -1;
}
