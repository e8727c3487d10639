/**
 * The part of an agent's network the page shows (DESIGN §14: around a starting set, never all of
 * it). Pure state, no DOM and no network: nodes as they were last read from the API, the links
 * among them, and ghosts — the far ends of dangling links, i.e. memories the agent has forgotten.
 * Node and link objects double as d3-force's simulation data (it writes x, y, vx, vy on them).
 */
import type { LinkView, NodeView } from "../api/schemas";

/** pending: shown, its details not read yet; loaded: read from the API; ghost: no longer exists. */
export type NodeStatus = "pending" | "loaded" | "ghost";

export interface GraphNode {
  id: number;
  status: NodeStatus;
  /** The latest view read; for a ghost, the last view before it was forgotten (if the page saw it). */
  view: NodeView | null;
  /** Part of the starting set the neighbourhood was drawn around. */
  start: boolean;
  /** All of its links are shown (its neighbours were added). */
  expanded: boolean;
  x: number;
  y: number;
  vx?: number;
  vy?: number;
  fx?: number | null;
  fy?: number | null;
  index?: number;
}

export interface GraphLink {
  key: string;
  source: GraphNode;
  target: GraphNode;
  relation: string;
  strength: number;
  pinned: boolean;
  dangling: boolean;
  index?: number;
}

export function linkKey(l: { source: number; target: number; relation: string }): string {
  return `${l.source}>${l.target}>${l.relation}`;
}

/** The other end of a link seen from `nodeId`. */
export function farEnd(l: LinkView, nodeId: number): number {
  return l.source === nodeId ? l.target : l.source;
}

/** Every link of a view, outgoing first. */
export function linksOf(view: NodeView): LinkView[] {
  return [...view.links.outgoing, ...view.links.incoming];
}

/** Links worth showing first: pinned (focus) links, then by strength, then live before dangling. */
export function rankLinks(links: readonly LinkView[]): LinkView[] {
  return [...links].sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || b.strength - a.strength || Number(a.dangling) - Number(b.dangling),
  );
}

export class GraphModel {
  readonly nodes = new Map<number, GraphNode>();
  readonly links = new Map<string, GraphLink>();
  /** Bumped on every change that adds or removes nodes or links (the layout restarts on it). */
  structureVersion = 0;
  /** Bumped on any change (the canvas redraws on it). */
  version = 0;

  clear(): void {
    this.nodes.clear();
    this.links.clear();
    this.changed(true);
  }

  get(id: number): GraphNode | undefined {
    return this.nodes.get(id);
  }

  /** Adds a node not read yet near (x, y); an existing node is returned unchanged. */
  addPending(id: number, x: number, y: number): GraphNode {
    const existing = this.nodes.get(id);
    if (existing) return existing;
    const node: GraphNode = { id, status: "pending", view: null, start: false, expanded: false, x, y };
    this.nodes.set(id, node);
    this.changed(true);
    return node;
  }

  /**
   * Records a node as read: its view replaces the previous one, and its links to nodes on screen
   * are brought in line with the view (new links added, strengths updated, broken links removed).
   * Dangling links get a ghost at their far end (unless `ghosts` is false: it costs no request, and
   * it is what forgetting leaves behind).
   */
  applyView(view: NodeView, ghosts = true): GraphNode {
    const node = this.nodes.get(view.node_id) ?? this.addPending(view.node_id, 0, 0);
    node.status = "loaded";
    node.view = view;
    const seen = new Set<string>();
    for (const l of linksOf(view)) {
      const key = linkKey(l);
      seen.add(key);
      const far = farEnd(l, view.node_id);
      let other = this.nodes.get(far);
      if (!other && l.dangling && ghosts) other = this.addGhost(far, node.x + 40 * Math.cos(far), node.y + 40 * Math.sin(far));
      if (!other) continue;
      if (l.dangling && other.status !== "ghost") this.toGhost(other);
      this.upsertLink(l, l.source === view.node_id ? node : other, l.source === view.node_id ? other : node);
    }
    for (const [key, link] of this.links) {
      if ((link.source === node || link.target === node) && !seen.has(key)) {
        this.links.delete(key);
        this.structureVersion += 1;
      }
    }
    this.changed(false);
    return node;
  }

  /**
   * Adds up to `cap` neighbours of a read node that are not shown yet, strongest links first, placed
   * on a ring around it, plus the ghosts of all its dangling links. Returns the live ones added (to
   * be read next), the ghosts added, and how many live neighbours stay hidden.
   */
  addNeighbours(view: NodeView, cap: number): { added: number[]; ghosts: number[]; hidden: number } {
    const before = new Set(this.nodes.keys());
    const node = this.applyView(view);
    node.expanded = true;
    const ghosts = [...this.nodes.keys()].filter((id) => id !== view.node_id && !before.has(id));
    const candidates = new Set<number>();
    for (const l of rankLinks(linksOf(view))) {
      const far = farEnd(l, view.node_id);
      if (!l.dangling && far !== view.node_id && !this.nodes.has(far)) candidates.add(far);
    }
    const added = [...candidates].slice(0, cap);
    const ring = added.length + ghosts.length;
    [...added, ...ghosts].forEach((id, i) => {
      const angle = (2 * Math.PI * i) / Math.max(ring, 1) + node.id;
      const radius = 60 + 25 * Math.sqrt(ring) + (i % 3) * 12;
      const x = node.x + radius * Math.cos(angle);
      const y = node.y + radius * Math.sin(angle);
      const existing = this.nodes.get(id);
      if (existing) {
        existing.x = x;
        existing.y = y;
      } else this.addPending(id, x, y);
    });
    // Link the node to everything now shown (the new neighbours included).
    this.applyView(view);
    return { added, ghosts, hidden: candidates.size - added.length };
  }

  /** A node that no longer exists (404): it stays on screen as a ghost, its outgoing links gone. */
  markForgotten(id: number): void {
    const node = this.nodes.get(id);
    if (!node) return;
    this.toGhost(node);
    this.changed(true);
  }

  /** A node purged with every trace (DESIGN §11): it leaves the screen with all its links. */
  remove(id: number): void {
    const node = this.nodes.get(id);
    if (!node) return;
    for (const [key, link] of this.links) if (link.source === node || link.target === node) this.links.delete(key);
    this.nodes.delete(id);
    this.changed(true);
  }

  /** Ids of the nodes on screen linked to this one. */
  neighbours(id: number): number[] {
    const out = new Set<number>();
    for (const l of this.linksOfNode(id)) out.add(l.source.id === id ? l.target.id : l.source.id);
    return [...out];
  }

  /** Neighbours of a node not on screen (from its last view). */
  hiddenNeighbours(id: number): number {
    const node = this.nodes.get(id);
    if (!node?.view) return 0;
    const far = new Set(linksOf(node.view).map((l) => farEnd(l, id)));
    let hidden = 0;
    for (const f of far) if (!this.nodes.has(f)) hidden += 1;
    return hidden;
  }

  linksOfNode(id: number): GraphLink[] {
    const out: GraphLink[] = [];
    for (const l of this.links.values()) if (l.source.id === id || l.target.id === id) out.push(l);
    return out;
  }

  counts(): { nodes: number; links: number; ghosts: number; pending: number } {
    let ghosts = 0;
    let pending = 0;
    for (const n of this.nodes.values()) {
      if (n.status === "ghost") ghosts += 1;
      else if (n.status === "pending") pending += 1;
    }
    return { nodes: this.nodes.size, links: this.links.size, ghosts, pending };
  }

  private addGhost(id: number, x: number, y: number): GraphNode {
    const node = this.addPending(id, x, y);
    this.toGhost(node);
    return node;
  }

  private toGhost(node: GraphNode): void {
    if (node.status === "ghost") return;
    node.status = "ghost";
    node.expanded = false;
    // A deleted node's outgoing links go with it (DESIGN §6); links into it stay, dangling.
    for (const [key, link] of this.links) {
      if (link.source === node) {
        this.links.delete(key);
        this.structureVersion += 1;
      } else if (link.target === node) link.dangling = true;
    }
    this.changed(false);
  }

  private upsertLink(l: LinkView, source: GraphNode, target: GraphNode): void {
    const key = linkKey(l);
    const existing = this.links.get(key);
    if (existing) {
      existing.strength = l.strength;
      existing.pinned = l.pinned;
      existing.dangling = l.dangling;
      return;
    }
    this.links.set(key, { key, source, target, relation: l.relation, strength: l.strength, pinned: l.pinned, dangling: l.dangling });
    this.structureVersion += 1;
  }

  private changed(structure: boolean): void {
    if (structure) this.structureVersion += 1;
    this.version += 1;
  }
}
