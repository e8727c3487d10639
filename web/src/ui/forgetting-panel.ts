/**
 * Forgetting on demand: runs compression cycles one at a time (POST compress, then GET stats with
 * wait_ms until the agent's queue is idle), re-reads the shown network after each so memories can
 * be watched shrinking, fading and leaving traces, and charts characters held and nodes per cycle.
 */
import type { ApiClient } from "../api/client";
import type { StatsView } from "../api/schemas";
import { renderChart, type CyclePoint } from "./chart";
import { byId, formatNumber, h, replace } from "./dom";

/** The longest the API lets one stats request wait for the queue (ms). */
const WAIT_MS = 30_000;
/** Stats requests per cycle before giving up on the queue becoming idle. */
const MAX_WAITS = 20;

export interface ForgettingDeps {
  client(): ApiClient;
  agent(): string;
  refresh(): Promise<void>;
}

export function pointOf(stats: StatsView, fallbackCycle: number): CyclePoint {
  return { cycle: stats.counters.cycles ?? fallbackCycle, held: stats.characters.held, nodes: stats.nodes.total };
}

/** Adds a point, replacing one of the same cycle (stats read twice between cycles). */
export function addPoint(points: CyclePoint[], point: CyclePoint): CyclePoint[] {
  const rest = points.filter((p) => p.cycle !== point.cycle);
  return [...rest, point].sort((a, b) => a.cycle - b.cycle);
}

export class ForgettingPanel {
  private readonly decay = byId("decay-rate", HTMLInputElement);
  private readonly count = byId("cycle-count", HTMLInputElement);
  private readonly runButton = byId("run-cycles", HTMLButtonElement);
  private readonly stopButton = byId("stop-cycles", HTMLButtonElement);
  private readonly progress = byId("cycle-progress", HTMLParagraphElement);
  private readonly summary = byId("stats-summary", HTMLDivElement);
  private readonly chart = byId("forgetting-chart", HTMLDivElement);
  private points: CyclePoint[] = [];
  private stopRequested = false;

  constructor(private readonly deps: ForgettingDeps) {
    this.stopButton.addEventListener("click", () => {
      this.stopRequested = true;
      this.progress.textContent = "Stopping after the current cycle…";
    });
  }

  /** Reads the agent's parameters and stats: the chart's first point. */
  async open(): Promise<void> {
    this.points = [];
    this.progress.textContent = "";
    const [config, stats] = await Promise.all([this.deps.client().config(this.deps.agent()), this.deps.client().stats(this.deps.agent())]);
    this.decay.value = String(config.decay_rate);
    this.record(stats);
  }

  async saveDecayRate(): Promise<void> {
    const config = await this.deps.client().updateConfig(this.deps.agent(), { decay_rate: Number(this.decay.value) });
    this.decay.value = String(config.decay_rate);
    this.progress.textContent = `Decay rate set to ${config.decay_rate}: it applies from the next cycle.`;
  }

  async runCycles(): Promise<void> {
    const total = Number(this.count.value);
    if (!Number.isInteger(total) || total < 1 || total > 100) {
      this.progress.textContent = "Cycles to run: a whole number from 1 to 100.";
      return;
    }
    const client = this.deps.client();
    const agent = this.deps.agent();
    this.stopRequested = false;
    this.runButton.disabled = true;
    this.stopButton.disabled = false;
    try {
      for (let i = 1; i <= total && !this.stopRequested; i += 1) {
        this.progress.textContent = `Cycle ${i} of ${total}: compressing…`;
        await client.compress(agent, 1);
        const stats = await this.waitIdle(client, agent);
        this.record(stats);
        await this.deps.refresh();
        this.progress.textContent = `Cycle ${i} of ${total} done (cycle ${stats.counters.cycles ?? "?"} of the agent).`;
      }
      if (this.stopRequested) this.progress.textContent += " Stopped.";
    } finally {
      this.runButton.disabled = false;
      this.stopButton.disabled = true;
    }
  }

  private async waitIdle(client: ApiClient, agent: string): Promise<StatsView> {
    for (let i = 0; i < MAX_WAITS; i += 1) {
      const stats = await client.stats(agent, WAIT_MS);
      if (stats.queue.queued === 0 && stats.queue.running === 0) return stats;
    }
    throw new Error("the agent's queue did not become idle");
  }

  private record(stats: StatsView): void {
    this.points = addPoint(this.points, pointOf(stats, this.points.length));
    replace(
      this.summary,
      h(
        "p",
        { "data-testid": "stats-line" },
        `${formatNumber(stats.characters.held)} of ${formatNumber(stats.characters.remembered)} characters held · ${formatNumber(stats.nodes.total)} nodes (${formatNumber(stats.nodes.segments)} memories, ${formatNumber(stats.nodes.entities)} entities) · ${formatNumber(stats.links.total)} links, ${formatNumber(stats.links.dangling)} dangling · ${formatNumber(stats.counters.cycles ?? 0)} cycles so far`,
      ),
    );
    replace(this.chart, renderChart(this.points));
  }
}
