/**
 * Force layout with d3-force, run by the page's own animation loop within a time budget per frame,
 * so the first frame is drawn at once (nodes start on rings around the node they came from) and the
 * layout settles over the next frames without ever blocking input. Restarted when nodes or links
 * are added or removed.
 */
import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type Simulation } from "d3-force";
import type { GraphLink, GraphModel, GraphNode } from "./model";
import { nodeRadius } from "./style";

/** Networks up to this many nodes get collision avoidance and re-settle when sizes change. */
const SMALL_NETWORK = 250;

export class ForceLayout {
  private readonly sim: Simulation<GraphNode, GraphLink>;
  private readonly linkForce = forceLink<GraphNode, GraphLink>([]);
  private readonly collide = forceCollide<GraphNode>();
  private structure = -1;
  private version = -1;

  constructor(private readonly model: GraphModel) {
    this.sim = forceSimulation<GraphNode, GraphLink>([])
      .force("link", this.linkForce)
      .force("charge", forceManyBody<GraphNode>().strength(-60).distanceMax(350).theta(0.95))
      .force("collide", this.collide.strength(0.8).iterations(2))
      .force("x", forceX<GraphNode>(0).strength(0.015))
      .force("y", forceY<GraphNode>(0).strength(0.015))
      .alphaDecay(0.04)
      .stop();
  }

  /** True while the layout still moves. */
  get active(): boolean {
    return this.sim.alpha() > this.sim.alphaMin();
  }

  /**
   * Picks up changes of the model. New or removed nodes and links restart the movement (`heat`,
   * 0..1); changed sizes and strengths only update the forces (d3 caches them per node and link),
   * and move small networks a little so grown nodes make room.
   */
  sync(heat = 0.5): void {
    if (this.version === this.model.version) return;
    this.version = this.model.version;
    const small = this.model.nodes.size <= SMALL_NETWORK;
    if (this.structure !== this.model.structureVersion) {
      this.structure = this.model.structureVersion;
      this.sim.nodes([...this.model.nodes.values()]);
      this.linkForce.links([...this.model.links.values()]);
      // Collision is the costliest force (measured: most of a tick at 400 nodes): small networks only.
      this.sim.force("collide", small ? this.collide : null);
      this.sim.alpha(Math.max(this.sim.alpha(), heat));
    } else if (small) {
      this.sim.alpha(Math.max(this.sim.alpha(), Math.min(heat, 0.15)));
    }
    if (small) this.collide.radius((n) => nodeRadius(n) + 4);
    // Hubs (a focus entity with dozens of memories) get longer links, so their ring has room.
    const degree = new Map<GraphNode, number>();
    for (const l of this.model.links.values()) {
      degree.set(l.source, (degree.get(l.source) ?? 0) + 1);
      degree.set(l.target, (degree.get(l.target) ?? 0) + 1);
    }
    const spread = (l: GraphLink) => 1 + Math.sqrt(Math.max(degree.get(l.source) ?? 1, degree.get(l.target) ?? 1)) / 5;
    this.linkForce.distance((l) => (l.dangling ? 60 : 50 + 50 * (1 - l.strength)) * spread(l)).strength((l) => 0.05 + 0.2 * l.strength);
  }

  /** Runs ticks until `budgetMs` is used or the layout has settled. Returns the ticks run. */
  step(budgetMs: number): number {
    const until = performance.now() + budgetMs;
    let ticks = 0;
    while (this.active && performance.now() < until) {
      this.sim.tick();
      ticks += 1;
    }
    return ticks;
  }

  stop(): void {
    this.sim.alpha(0);
  }
}
