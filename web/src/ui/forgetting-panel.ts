/**
 * Forgetting on demand: runs compression cycles one at a time (POST compress, then GET stats with
 * wait_ms until the agent's queue is idle), re-reads the shown network after each so memories can
 * be watched shrinking, fading and leaving traces, and charts characters held and nodes per cycle.
 * Next to the cycles control it says how many cycles it takes for forgetting to show at the
 * agent's decay rate (web/src/graph/forecast.ts): at the default rate a few cycles change nothing.
 */
import type { ApiClient } from "../api/client";
import type { ConfigView, NodeView, StatsView } from "../api/schemas";
import { DEFAULT_DECAY, forecast, type DecayParams } from "../graph/forecast";
import { renderChart, type CyclePoint } from "./chart";
import { byId, formatNumber, h, replace } from "./dom";

/** The longest the API lets one stats request wait for the queue (ms). */
const WAIT_MS = 30_000;
/** Stats requests per cycle before giving up on the queue becoming idle. */
const MAX_WAITS = 20;
/** The most cycles one run takes (the count field's bounds). */
const MAX_CYCLES = 100;

export interface ForgettingDeps {
  client(): ApiClient;
  agent(): string;
  refresh(): Promise<void>;
  /** The views of the nodes shown (for the forecast). */
  shown(): NodeView[];
}

export function decayParams(config: ConfigView): DecayParams {
  return {
    decay_rate: config.decay_rate,
    link_initial_strength: config.link_initial_strength ?? DEFAULT_DECAY.link_initial_strength,
    link_break_threshold: config.link_break_threshold ?? DEFAULT_DECAY.link_break_threshold,
    delete_threshold: config.delete_threshold ?? DEFAULT_DECAY.delete_threshold,
  };
}

/** The forecast in words: how long forgetting takes to show, and the number of cycles to try. */
export function forecastText(p: DecayParams, shown: readonly NodeView[]): { text: string; suggested: number | null } {
  const f = forecast(p, shown);
  const rate = formatNumber(p.decay_rate);
  if (f.halving === null) {
    return { text: `At decay rate ${rate} links never weaken: cycles change nothing until the rate is lowered.`, suggested: null };
  }
  const cycles = (n: number) => (n === 1 ? "1 cycle" : `${formatNumber(n)} cycles`);
  const links =
    `At decay rate ${rate} a link not held by the focus keeps ${formatNumber(p.decay_rate * 100, 1)}% of its strength per cycle: ` +
    `it is half as strong after ${cycles(f.halving)}` +
    (f.breaking === null ? "." : `, and a new link (${formatNumber(p.link_initial_strength)}) breaks after ${cycles(f.breaking)}.`);
  const nodes =
    f.firstShrink === null
      ? " Nothing shown changes while the focus stays as it is."
      : ` Of the nodes shown, #${f.firstShrink.nodeId} is the first to shrink, after ${cycles(f.firstShrink.cycles)}` +
        (f.firstForgotten === null
          ? "; none is forgotten while the focus stays as it is."
          : `, and #${f.firstForgotten.nodeId} the first to be forgotten, after ${cycles(f.firstForgotten.cycles)}.`);
  const suggested = f.suggested === null ? null : Math.min(MAX_CYCLES, f.suggested);
  return { text: links + nodes, suggested };
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
  private readonly forecastLine = byId("cycle-forecast", HTMLSpanElement);
  private readonly useSuggested = byId("use-suggested-cycles", HTMLButtonElement);
  private params: DecayParams = DEFAULT_DECAY;
  private points: CyclePoint[] = [];
  private stopRequested = false;

  constructor(private readonly deps: ForgettingDeps) {
    this.stopButton.addEventListener("click", () => {
      this.stopRequested = true;
      this.progress.textContent = "Stopping after the current cycle…";
    });
    this.useSuggested.addEventListener("click", () => {
      this.count.value = this.useSuggested.dataset.cycles ?? this.count.value;
      this.count.focus();
    });
  }

  /** Says how many cycles it takes for forgetting to show, for the agent's parameters and the nodes shown now. */
  updateForecast(): void {
    const { text, suggested } = forecastText(this.params, this.deps.shown());
    this.forecastLine.textContent = text;
    this.useSuggested.hidden = suggested === null;
    if (suggested !== null) {
      this.useSuggested.dataset.cycles = String(suggested);
      this.useSuggested.textContent = `Use ${suggested}`;
    }
  }

  /** Reads the agent's parameters and stats: the chart's first point. */
  async open(): Promise<void> {
    this.points = [];
    this.progress.textContent = "";
    const [config, stats] = await Promise.all([this.deps.client().config(this.deps.agent()), this.deps.client().stats(this.deps.agent())]);
    this.params = decayParams(config);
    this.decay.value = String(config.decay_rate);
    this.record(stats);
    this.updateForecast();
  }

  async saveDecayRate(): Promise<void> {
    const config = await this.deps.client().updateConfig(this.deps.agent(), { decay_rate: Number(this.decay.value) });
    this.params = decayParams(config);
    this.decay.value = String(config.decay_rate);
    this.progress.textContent = `Decay rate set to ${config.decay_rate}: it applies from the next cycle.`;
    this.updateForecast();
  }

  async runCycles(): Promise<void> {
    const total = Number(this.count.value);
    if (!Number.isInteger(total) || total < 1 || total > MAX_CYCLES) {
      this.progress.textContent = `Cycles to run: a whole number from 1 to ${MAX_CYCLES}.`;
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
      this.updateForecast();
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
