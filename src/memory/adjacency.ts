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
  level: number;
  sourceSlot: number;
  targetSlot: number;
}

/** Neighbour value of an outgoing link whose target was deleted: a dangling link. */
const DANGLING = -1;

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
  private constructor(
    private readonly offsets: Int32Array,
    private readonly neighbours: Int32Array,
    private readonly levels: Float64Array,
    private readonly relations: Uint16Array,
    /** The link behind each entry, read only for dangling links. */
    private readonly links: SlotLink[],
    private readonly relationCodes: ReadonlyMap<string, number>,
  ) {}

  /**
   * Per slot, its outgoing links then its incoming ones, in list order (the order the link-object
   * traversal used, so dangling links come out in the same order). Incoming links from a source
   * that does not exist can never be followed and are left out.
   */
  static build(slotOut: readonly (readonly SlotLink[])[], slotIn: readonly (readonly SlotLink[])[]): Adjacency {
    const slots = slotOut.length;
    let size = 0;
    for (let slot = 0; slot < slots; slot++) size += (slotOut[slot]?.length ?? 0) + (slotIn[slot]?.length ?? 0);
    const offsets = new Int32Array(slots + 1);
    const neighbours = new Int32Array(size);
    const levels = new Float64Array(size);
    const relations = new Uint16Array(size);
    const links: SlotLink[] = new Array<SlotLink>(size);
    const relationCodes = new Map<string, number>();
    const code = (relation: string): number => {
      let c = relationCodes.get(relation);
      if (c === undefined) {
        c = relationCodes.size;
        relationCodes.set(relation, c);
      }
      return c;
    };
    let e = 0;
    const put = (link: SlotLink, neighbour: number) => {
      neighbours[e] = neighbour;
      levels[e] = link.level;
      relations[e] = code(link.relation);
      links[e] = link;
      e += 1;
    };
    for (let slot = 0; slot < slots; slot++) {
      offsets[slot] = e;
      for (const link of slotOut[slot] ?? []) put(link, link.targetSlot >= 0 ? link.targetSlot : DANGLING);
      for (const link of slotIn[slot] ?? []) if (link.sourceSlot >= 0) put(link, link.sourceSlot);
    }
    offsets[slots] = e;
    return new Adjacency(offsets, neighbours.subarray(0, e), levels.subarray(0, e), relations.subarray(0, e), links, relationCodes);
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
    const layerOf = new Uint8Array(this.slotCount);
    const best = new Float64Array(this.slotCount);
    const order: number[] = [];
    for (const [slot, strength] of start) {
      if (layerOf[slot] !== 0) continue;
      layerOf[slot] = 1;
      best[slot] = strength;
      order.push(slot);
    }
    const dangling: DanglingLink[] = [];
    const { offsets, neighbours, levels, relations: codes } = this;
    let frontier = order.slice();
    for (let layer = 1; layer <= depth && frontier.length > 0; layer++) {
      const mark = layer + 1;
      const next: number[] = [];
      for (const slot of frontier) {
        const from = best[slot] ?? 0;
        const end = offsets[slot + 1] ?? 0;
        for (let e = offsets[slot] ?? 0; e < end; e++) {
          if (allowed && allowed[codes[e] ?? 0] === 0) continue;
          const strength = strengthAt(levels[e] ?? 0, clock);
          const to = neighbours[e] ?? DANGLING;
          if (to === DANGLING) {
            const link = this.links[e];
            if (link) dangling.push({ source: link.source, target: link.target, relation: link.relation, strength });
            continue;
          }
          const seen = layerOf[to];
          if (seen === 0) {
            layerOf[to] = mark;
            best[to] = from * strength;
            next.push(to);
          } else if (seen === mark && from * strength > (best[to] ?? 0)) {
            best[to] = from * strength;
          }
        }
      }
      for (const slot of next) order.push(slot);
      frontier = next;
    }
    return { order, layerOf, best, dangling };
  }

  /** 1 at the code of each allowed relation; undefined when every relation is allowed. */
  private allowedCodes(relations: readonly string[]): Uint8Array | undefined {
    if (relations.length === 0) return undefined;
    const allowed = new Uint8Array(this.relationCodes.size);
    for (const relation of relations) {
      const c = this.relationCodes.get(relation);
      if (c !== undefined) allowed[c] = 1;
    }
    return allowed;
  }
}
