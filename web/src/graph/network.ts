/**
 * Reads the part of an agent's network the page shows, through the public API only: a starting
 * set (the focus, search hits, a node) with its neighbours, grown node by node on request, and
 * re-read after compression cycles (from one snapshot of the network, web/src/api/snapshot.ts). Neighbours are drawn the moment their ids are known (as
 * pending nodes) and filled in as their details arrive, a few requests at a time.
 */
import type { ApiClient } from "../api/client";
import type { NodeView } from "../api/schemas";
import type { NetworkSnapshot } from "../api/snapshot";
import { mapPool } from "../util/pool";
import { startTiming } from "../util/timing";
import type { GraphCanvas } from "./canvas-view";
import type { GraphModel } from "./model";

/** Neighbours added per start node, and in all, when a neighbourhood is drawn. */
export const START_NEIGHBOURS_PER_NODE = 60;
export const START_NEIGHBOURS_TOTAL = 300;
/** Neighbours added by one expansion; expanding again adds the next ones. */
export const EXPAND_NEIGHBOURS = 200;
/** Node reads in flight at once. */
const CONCURRENCY = 6;

export interface NetworkEvents {
  /** Something shown changed (lists and panels re-read the model). */
  changed(): void;
  /** A line for the status bar. */
  status(text: string): void;
}

export class NetworkLoader {
  /** A new starting set makes every earlier load stop. */
  private generation = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly agent: string,
    private readonly model: GraphModel,
    private readonly canvas: GraphCanvas,
    private readonly events: NetworkEvents,
  ) {}

  /** Replaces what is shown with the starting set and its neighbours. Unknown ids are skipped. */
  async showAround(ids: readonly number[], label: string): Promise<void> {
    const generation = ++this.generation;
    const timing = startTiming("neighbourhood");
    const views = (await mapPool(ids, CONCURRENCY, (id) => this.client.node(this.agent, id))).filter((v): v is NodeView => v !== null);
    if (generation !== this.generation) return;
    this.model.clear();
    this.canvas.autoFit = true;
    this.canvas.highlights.clear();
    this.canvas.traceSources.clear();
    views.forEach((view, i) => {
      const angle = (2 * Math.PI * i) / Math.max(1, views.length);
      const radius = views.length > 1 ? 40 + 20 * views.length : 0;
      const node = this.model.addPending(view.node_id, radius * Math.cos(angle), radius * Math.sin(angle));
      node.start = true;
    });
    const pending: number[] = [];
    let budget = START_NEIGHBOURS_TOTAL;
    for (const view of views) {
      const { added, ghosts } = this.model.addNeighbours(view, Math.min(START_NEIGHBOURS_PER_NODE, budget));
      budget = Math.max(0, budget - added.length - ghosts.length);
      pending.push(...added);
    }
    this.events.changed();
    await this.canvas.whenDrawn();
    const first = timing.firstRender();
    this.events.status(
      `${label}: ${views.length} start nodes, ${pending.length} neighbours drawn in ${first.toFixed(0)} ms; reading them…`,
    );
    await this.load(pending, generation);
    if (generation !== this.generation) return;
    await this.canvas.whenDrawn();
    const complete = timing.complete();
    const c = this.model.counts();
    this.events.status(
      `${label}: ${c.nodes} nodes and ${c.links} links shown (first frame ${first.toFixed(0)} ms, complete ${complete.toFixed(0)} ms)`,
    );
  }

  /** Adds the next neighbours of a node that are not shown yet. */
  async expand(id: number): Promise<void> {
    const generation = this.generation;
    const timing = startTiming("expand");
    const view = await this.client.node(this.agent, id);
    if (generation !== this.generation) return;
    if (!view) {
      this.model.markForgotten(id);
      this.events.changed();
      this.events.status(`#${id} no longer exists: it has been forgotten`);
      return;
    }
    const { added, ghosts, hidden } = this.model.addNeighbours(view, EXPAND_NEIGHBOURS);
    this.events.changed();
    await this.canvas.whenDrawn();
    const first = timing.firstRender();
    await this.load(added, generation);
    if (generation !== this.generation) return;
    await this.canvas.whenDrawn();
    const complete = timing.complete();
    const more = hidden > 0 ? `; ${hidden} more not shown (expand again)` : "";
    this.events.status(
      `Expanded #${id}: ${added.length} neighbours and ${ghosts.length} forgotten (first frame ${first.toFixed(0)} ms, complete ${complete.toFixed(0)} ms)${more}`,
    );
  }

  /** Shows nodes found by recall or search that are not on screen yet, linked to what is. */
  async reveal(ids: readonly number[]): Promise<void> {
    const generation = this.generation;
    const missing = this.placeMissing(ids);
    if (missing.length === 0) return;
    await this.load(missing, generation);
  }

  /** Re-reads these nodes (after a write), adding those not shown yet; one that is gone becomes a ghost. */
  async reload(ids: readonly number[]): Promise<void> {
    const generation = this.generation;
    this.placeMissing(ids);
    await this.load([...new Set(ids)], generation);
  }

  private placeMissing(ids: readonly number[]): number[] {
    const missing = [...new Set(ids.filter((id) => !this.model.get(id)))];
    missing.forEach((id, i) => {
      const angle = (2 * Math.PI * i) / missing.length;
      this.model.addPending(id, 300 * Math.cos(angle), 300 * Math.sin(angle));
    });
    if (missing.length > 0) this.events.changed();
    return missing;
  }

  /**
   * Re-reads every node shown (after compression cycles: shrunk contents, weaker links, new ghosts)
   * from one snapshot of the network: a node that is no longer in it turns into a ghost without a
   * request for it. Resolves with the snapshot (the caller may look at more of it).
   */
  async refresh(): Promise<NetworkSnapshot | null> {
    const generation = this.generation;
    const snapshot = await this.client.network(this.agent);
    if (generation !== this.generation) return null;
    for (const node of [...this.model.nodes.values()]) {
      if (node.status === "ghost") continue;
      const view = snapshot.view(node.id);
      if (view) this.model.applyView(view);
      else this.model.markForgotten(node.id);
    }
    this.events.changed();
    this.canvas.requestDraw();
    return snapshot;
  }

  private async load(ids: readonly number[], generation: number): Promise<void> {
    let done = 0;
    await mapPool(
      ids,
      CONCURRENCY,
      async (id) => {
        const view = await this.client.node(this.agent, id);
        if (generation !== this.generation) return;
        if (view) this.model.applyView(view);
        else this.model.markForgotten(id);
        done += 1;
        if (done % 50 === 0) this.events.changed();
        this.canvas.requestDraw();
      },
      () => generation !== this.generation,
    );
    if (generation === this.generation) this.events.changed();
  }
}
