/**
 * A compact, read-only copy of the in-memory graph's adjacency for recall's traversal: every node
 * that exists has a dense slot, and the links at each slot sit side by side in typed arrays
 * (neighbour slot, log-level, relation code). A depth-2 recall from a full focus at 10k nodes
 * visits ~170k link ends; reading them from contiguous arrays instead of one object per link is
 * what keeps it a few milliseconds (measured in docs/BENCHMARKS.md). The graph rebuilds this
 * lazily after any change to its links, so a burst of recalls between two writes shares one build.
 */
import type { DanglingLink } from "./bfs";
import { strengthAt } from "./strength";

/** What the compact copy is built from: one slot's links, as the graph holds them. */
export interface SlotLink {
  source: number;
  target: number;
  relation: string;
  /** The relation's code in the graph's RelationCodes. */
  relationCode: number;
  level: number;
  sourceSlot: number;
  targetSlot: number;
}

/** Small integer codes for relation names, assigned on first sight and never reused. */
export class RelationCodes {
  private readonly codes = new Map<string, number>();

  code(relation: string): number {
    let c = this.codes.get(relation);
    if (c === undefined) {
      c = this.codes.size;
      this.codes.set(relation, c);
    }
    return c;
  }

  find(relation: string): number | undefined {
    return this.codes.get(relation);
  }

  get size(): number {
    return this.codes.size;
  }
}

/** Neighbour value of an outgoing link whose target was deleted: a dangling link. */
export const DANGLING = -1;

/** The ends and relation of the link behind an entry (read only for dangling links). */
export type EntryLink = (entry: number) => Pick<SlotLink, "source" | "target" | "relation"> | undefined;

export interface Traversal {
  /** Reached slots in discovery order (start nodes first, then layer by layer). */
  order: number[];
  /** Per slot: 0 when not reached, else its BFS layer + 1. */
  layerOf: Uint8Array;
  /** Per slot: the strongest path's strength. */
  best: Float64Array;
  dangling: DanglingLink[];
}

export class Adjacency {
  /**
   * Per slot s, its entries are offsets[s] … offsets[s + 1]: the neighbour's slot (or DANGLING),
   * the link's level and relation code. Built from the link objects (build) or straight from the
   * copy's arrays (packed-links.ts).
   */
  constructor(
    private readonly offsets: Int32Array,
    private readonly neighbours: Int32Array,
    private readonly levels: Float64Array,
    private readonly relations: Uint16Array,
    private readonly linkOf: EntryLink,
    private readonly relationCodes: RelationCodes,
  ) {}

  /**
   * Per slot, its outgoing links then its incoming ones, in list order (the order the link-object
   * traversal used, so dangling links come out in the same order). Incoming links from a source
   * that does not exist can never be followed and are left out.
   */
  static build(
    slotOut: readonly (readonly SlotLink[])[],
    slotIn: readonly (readonly SlotLink[])[],
    relationCodes: RelationCodes,
  ): Adjacency {
    const slots = slotOut.length;
    let size = 0;
    for (let slot = 0; slot < slots; slot++) size += (slotOut[slot]?.length ?? 0) + (slotIn[slot]?.length ?? 0);
    const offsets = new Int32Array(slots + 1);
    const neighbours = new Int32Array(size);
    const levels = new Float64Array(size);
    const relations = new Uint16Array(size);
    const links: SlotLink[] = new Array<SlotLink>(size);
    let e = 0;
    for (let slot = 0; slot < slots; slot++) {
      offsets[slot] = e;
      for (const link of slotOut[slot] ?? []) {
        neighbours[e] = link.targetSlot >= 0 ? link.targetSlot : DANGLING;
        levels[e] = link.level;
        relations[e] = link.relationCode;
        links[e] = link;
        e += 1;
      }
      for (const link of slotIn[slot] ?? []) {
        if (link.sourceSlot < 0) continue;
        neighbours[e] = link.sourceSlot;
        levels[e] = link.level;
        relations[e] = link.relationCode;
        links[e] = link;
        e += 1;
      }
    }
    offsets[slots] = e;
    return new Adjacency(
      offsets,
      neighbours.subarray(0, e),
      levels.subarray(0, e),
      relations.subarray(0, e),
      (entry) => links[entry],
      relationCodes,
    );
  }

  get slotCount(): number {
    return this.offsets.length - 1;
  }

  /**
   * Breadth-first from `start` (slot → start strength), `depth` layers, both directions, only
   * `relations` when given. A node keeps the layer it is first reached in and, within that layer,
   * the strongest path into it. Outgoing links of reached nodes (up to depth − 1) whose target is
   * gone are reported as dangling.
   */
  traverse(start: ReadonlyMap<number, number>, depth: number, relations: readonly string[], clock: number): Traversal {
    const allowed = this.allowedCodes(relations);
    const marks = new Marks(this.slotCount, start);
    const { offsets, neighbours, levels, relations: codes } = this;
    for (let layer = 1; layer <= depth && marks.frontier.length > 0; layer++) {
      for (const slot of marks.frontier) {
        const from = marks.best[slot] ?? 0;
        const end = offsets[slot + 1] ?? 0;
        for (let e = offsets[slot] ?? 0; e < end; e++) {
          if (allowed && allowed[codes[e] ?? 0] === 0) continue;
          const strength = strengthAt(levels[e] ?? 0, clock);
          const to = neighbours[e] ?? DANGLING;
          if (to !== DANGLING) marks.offer(to, from * strength, layer);
          else marks.dangle(this.linkOf(e), strength);
        }
      }
      marks.endLayer();
    }
    return marks.result();
  }

  /** 1 at the code of each allowed relation; undefined when every relation is allowed. */
  private allowedCodes(relations: readonly string[]): Uint8Array | undefined {
    if (relations.length === 0) return undefined;
    const allowed = new Uint8Array(this.relationCodes.size);
    for (const relation of relations) {
      const c = this.relationCodes.find(relation);
      if (c !== undefined) allowed[c] = 1;
    }
    return allowed;
  }
}

/**
 * The same breadth-first search straight over the graph's per-slot link lists, without building
 * the compact copy first. Building it costs about three traversals, so after a change to the links
 * the graph answers one traversal this way and builds the copy only when a second one follows
 * (an agent that remembers and recalls in turn never pays for a copy it would use once).
 */
export function traverseLists(
  slotOut: readonly (readonly SlotLink[])[],
  slotIn: readonly (readonly SlotLink[])[],
  start: ReadonlyMap<number, number>,
  depth: number,
  relations: readonly string[],
  clock: number,
): Traversal {
  const allowed = relations.length > 0 ? new Set(relations) : undefined;
  const marks = new Marks(slotOut.length, start);
  for (let layer = 1; layer <= depth && marks.frontier.length > 0; layer++) {
    for (const slot of marks.frontier) {
      const from = marks.best[slot] ?? 0;
      for (const link of slotOut[slot] ?? []) {
        if (allowed && !allowed.has(link.relation)) continue;
        const strength = strengthAt(link.level, clock);
        if (link.targetSlot >= 0) marks.offer(link.targetSlot, from * strength, layer);
        else marks.dangle(link, strength);
      }
      for (const link of slotIn[slot] ?? []) {
        if (allowed && !allowed.has(link.relation)) continue;
        if (link.sourceSlot >= 0) marks.offer(link.sourceSlot, from * strengthAt(link.level, clock), layer);
      }
    }
    marks.endLayer();
  }
  return marks.result();
}

/** What a traversal has reached so far, layer by layer, in typed arrays indexed by slot. */
class Marks {
  readonly layerOf: Uint8Array;
  readonly best: Float64Array;
  private readonly order: number[] = [];
  private readonly dangling: DanglingLink[] = [];
  frontier: number[] = [];
  private next: number[] = [];

  constructor(slots: number, start: ReadonlyMap<number, number>) {
    this.layerOf = new Uint8Array(slots);
    this.best = new Float64Array(slots);
    for (const [slot, strength] of start) {
      if (this.layerOf[slot] !== 0) continue;
      this.layerOf[slot] = 1;
      this.best[slot] = strength;
      this.order.push(slot);
      this.frontier.push(slot);
    }
  }

  /** A path of `strength` into `slot` in `layer`: first reach, or a stronger path within the layer. */
  offer(slot: number, strength: number, layer: number): void {
    const seen = this.layerOf[slot];
    if (seen === 0) {
      this.layerOf[slot] = layer + 1;
      this.best[slot] = strength;
      this.next.push(slot);
    } else if (seen === layer + 1 && strength > (this.best[slot] ?? 0)) {
      this.best[slot] = strength;
    }
  }

  dangle(link: Pick<SlotLink, "source" | "target" | "relation"> | undefined, strength: number): void {
    if (link) this.dangling.push({ source: link.source, target: link.target, relation: link.relation, strength });
  }

  endLayer(): void {
    for (const slot of this.next) this.order.push(slot);
    this.frontier = this.next;
    this.next = [];
  }

  result(): Traversal {
    return { order: this.order, layerOf: this.layerOf, best: this.best, dangling: this.dangling };
  }
}
