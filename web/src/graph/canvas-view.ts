/**
 * Draws the shown part of the network on a canvas (2D context: fast enough at a few thousand
 * nodes and links, measured in docs/web-view.md) and turns pointer, wheel and keyboard input into
 * pan, zoom, select and expand. Links are stroked in a few batches (by kind and strength band)
 * rather than one by one; labels are drawn in screen space so they keep their size, placed without
 * overlap (web/src/graph/labels.ts). Until the user pans or zooms, every frame fits the whole
 * network into the canvas, so whatever changes what is shown (a recall, a search, an expansion,
 * cycles, a write) stays in view; Fit (or the 0 key) goes back to that.
 */
import { placeLabels, type LabelCandidate, type PlacedLabel } from "./labels";
import type { ForceLayout } from "./layout";
import type { GraphLink, GraphModel, GraphNode } from "./model";
import {
  CONFLICT_COLOUR,
  correctionMarks,
  GHOST_COLOUR,
  HIT_COLOUR,
  kindColour,
  LINK_COLOUR,
  linkAlpha,
  linkWidth,
  nodeAlpha,
  nodeLabel,
  nodeRadius,
  PINNED_COLOUR,
  retainedShare,
  SELECTED_COLOUR,
  SUPERSEDED_COLOUR,
  TRACE_COLOUR,
  truncate,
} from "./style";

export interface CanvasCallbacks {
  select(id: number | null): void;
  expand(id: number): void;
}

interface Transform {
  k: number;
  x: number;
  y: number;
}

/** Label text height and the candidates tried per frame (the most important first). */
const LABEL_HEIGHT = 15;
const MAX_LABEL_CANDIDATES = 400;
/** Nodes are never drawn smaller than this many pixels across their radius. */
const MIN_RADIUS_PX = 2.5;
/**
 * How far the rings drawn around a node reach beyond it, in pixels (gap plus half the stroke):
 * selection 10 + 1.25, recall hit and trace 6 + 1.5, contradiction 5 + 1, focus halo 5.
 */
const SELECTED_RING = 10;
const HIT_RING = 6;
const CONFLICT_RING = 5;
const FOCUS_HALO = 5;
const OUTERMOST_RING_PX = SELECTED_RING + 1.25;
/** Space kept free between the fitted network's outermost ring and the canvas edge. */
const FIT_MARGIN_PX = 6;

/** A drawn node in canvas pixels (CSS): centre, and how far its disc and rings reach. */
export interface DrawnNode {
  id: number;
  x: number;
  y: number;
  r: number;
}

/** What the last frame drew, in canvas pixels: exposed on the canvas element for tests and tools. */
export interface DrawnLayout {
  width: number;
  height: number;
  nodes: DrawnNode[];
  labels: PlacedLabel[];
}

const LABEL_FONT =
  '12px system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", "WenQuanYi Micro Hei", "PingFang SC", "Microsoft YaHei", sans-serif';
/** Strength bands links are batched in: one stroke per band. */
const BANDS = 5;
/** Time per frame the layout may use; the rest is for drawing and input. */
const LAYOUT_BUDGET_MS = 10;

export class GraphCanvas {
  selected: number | null = null;
  /** Recall and search hits, ringed. */
  highlights = new Set<number>();
  /** Nodes a recall found a forgotten trace behind. */
  traceSources = new Set<number>();
  /** Keep fitting the whole network into view until the user pans or zooms. */
  autoFit = true;

  private readonly ctx: CanvasRenderingContext2D;
  private transform: Transform = { k: 1, x: 0, y: 0 };
  private width = 0;
  private height = 0;
  private dpr = 1;
  private frameRequested = false;
  private drawnVersion = -1;
  private hovered: GraphNode | null = null;
  private readonly drawWaiters: (() => void)[] = [];
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private press: { x: number; y: number; moved: boolean } | null = null;
  private pinch: { distance: number; k: number } | null = null;
  private needsDraw = true;
  private labels: PlacedLabel[] = [];
  private readonly textWidths = new Map<string, number>();

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly model: GraphModel,
    private readonly layout: ForceLayout,
    private readonly callbacks: CanvasCallbacks,
  ) {
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("this browser cannot draw on a canvas");
    this.ctx = ctx;
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
    canvas.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    canvas.addEventListener("pointermove", (e) => this.onPointerMove(e));
    canvas.addEventListener("pointerup", (e) => this.onPointerUp(e));
    canvas.addEventListener("pointercancel", (e) => this.onPointerUp(e));
    canvas.addEventListener("pointerleave", () => this.setHovered(null));
    canvas.addEventListener("dblclick", (e) => {
      const node = this.hit(e.offsetX, e.offsetY);
      if (node && node.status !== "ghost") this.callbacks.expand(node.id);
    });
    canvas.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    canvas.addEventListener("keydown", (e) => this.onKey(e));
    // The page's own positions of what it drew, for tests and tools: `canvas.drawnLayout()`.
    Object.defineProperty(canvas, "drawnLayout", { value: () => this.drawnLayout(), configurable: true });
  }

  /** Every node and label of the last frame in canvas pixels (CSS), as drawn. */
  drawnLayout(): DrawnLayout {
    const nodes = [...this.model.nodes.values()].map((n) => this.drawnNode(n));
    return { width: this.width, height: this.height, nodes, labels: this.labels.map((l) => ({ ...l })) };
  }

  private drawnNode(n: GraphNode): DrawnNode {
    const { k, x, y } = this.transform;
    return { id: n.id, x: n.x * k + x, y: n.y * k + y, r: Math.max(nodeRadius(n) * k, MIN_RADIUS_PX) + this.ringReach(n) };
  }

  /** How far beyond its disc the rings drawn around a node reach, in pixels. */
  private ringReach(n: GraphNode): number {
    if (n.id === this.selected) return SELECTED_RING + 1.25;
    if (this.highlights.has(n.id) || this.traceSources.has(n.id)) return HIT_RING + 1.5;
    const marks = correctionMarks(n);
    if (marks.conflict) return CONFLICT_RING + 1;
    if (n.view?.in_focus && n.status !== "ghost") return FOCUS_HALO;
    if (marks.superseded) return 2 + 1;
    // Half the outline's stroke (a start node's is 3 px wide).
    return 1.5;
  }

  /** Schedules a frame (layout steps, then drawing). */
  requestDraw(): void {
    this.needsDraw = true;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => this.frame());
  }

  /** Resolves once the next frame has been drawn. */
  whenDrawn(): Promise<void> {
    return new Promise((resolve) => {
      this.drawWaiters.push(resolve);
      this.requestDraw();
    });
  }

  /**
   * Zooms and pans so that every shown node, rings included, is inside the canvas. World bounds
   * cover each node's disc; the margin covers what does not scale with zoom (the smallest drawn
   * radius and the widest ring), so no node is clipped at any zoom.
   */
  fit(): void {
    this.fitTransform();
    this.requestDraw();
  }

  /** The transform that fits the network (without scheduling a frame: the frame loop calls it before drawing). */
  private fitTransform(): void {
    if (this.model.nodes.size === 0 || this.width === 0) return;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const n of this.model.nodes.values()) {
      const r = nodeRadius(n);
      minX = Math.min(minX, n.x - r);
      minY = Math.min(minY, n.y - r);
      maxX = Math.max(maxX, n.x + r);
      maxY = Math.max(maxY, n.y + r);
    }
    const pad = FIT_MARGIN_PX + MIN_RADIUS_PX + OUTERMOST_RING_PX;
    const k = Math.min(
      1.5,
      Math.max(0.001, this.width - 2 * pad) / Math.max(1, maxX - minX),
      Math.max(0.001, this.height - 2 * pad) / Math.max(1, maxY - minY),
    );
    this.transform = { k, x: this.width / 2 - k * ((minX + maxX) / 2), y: this.height / 2 - k * ((minY + maxY) / 2) };
  }

  /** Fits again from now on, after every change of what is shown (the Fit button, the 0 key, a new starting set). */
  resumeFitting(): void {
    this.autoFit = true;
    this.fit();
  }

  /**
   * Brings a node selected from a list into view. While the page fits the network it is in view
   * already; once the user has panned or zoomed, their view pans to put it in the middle.
   */
  centreOn(id: number): void {
    const node = this.model.get(id);
    if (!node || this.autoFit) return;
    const { k } = this.transform;
    this.transform = { k, x: this.width / 2 - k * node.x, y: this.height / 2 - k * node.y };
    this.requestDraw();
  }

  zoomBy(factor: number, cx = this.width / 2, cy = this.height / 2): void {
    const { k, x, y } = this.transform;
    const next = Math.max(0.02, Math.min(12, k * factor));
    this.autoFit = false;
    this.transform = { k: next, x: cx - ((cx - x) / k) * next, y: cy - ((cy - y) / k) * next };
    this.requestDraw();
  }

  panBy(dx: number, dy: number): void {
    this.autoFit = false;
    this.transform = { ...this.transform, x: this.transform.x + dx, y: this.transform.y + dy };
    this.requestDraw();
  }

  private frame(): void {
    this.frameRequested = false;
    this.layout.sync();
    const moved = this.layout.step(LAYOUT_BUDGET_MS) > 0;
    const changed = moved || this.drawnVersion !== this.model.version || this.drawWaiters.length > 0 || this.needsDraw;
    // Whatever changed (positions, sizes, rings, nodes in or out), the network is fitted again first.
    if (changed && this.autoFit) this.fitTransform();
    if (changed) {
      this.draw();
      this.needsDraw = false;
    }
    this.canvas.dataset.layout = this.layout.active ? "moving" : "settled";
    for (const resolve of this.drawWaiters.splice(0)) resolve();
    if (this.layout.active && !this.frameRequested) {
      this.frameRequested = true;
      requestAnimationFrame(() => this.frame());
    }
  }

  private resize(): void {
    const rect = this.canvas.getBoundingClientRect();
    this.dpr = window.devicePixelRatio || 1;
    this.width = rect.width;
    this.height = rect.height;
    this.canvas.width = Math.max(1, Math.round(rect.width * this.dpr));
    this.canvas.height = Math.max(1, Math.round(rect.height * this.dpr));
    if (this.autoFit) this.fit();
    this.needsDraw = true;
    this.requestDraw();
  }

  private draw(): void {
    this.drawnVersion = this.model.version;
    const { ctx, dpr } = this;
    const { k, x, y } = this.transform;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * x, dpr * y);
    this.drawLinks(k);
    this.drawNodes(k);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.drawLabels(k);
    this.describeDrawing();
  }

  /** What the last frame showed, as data attributes: for tests and tools, which cannot read pixels' meaning. */
  private describeDrawing(): void {
    const c = this.model.counts();
    const data = this.canvas.dataset;
    data.nodes = String(c.nodes);
    data.links = String(c.links);
    data.ghosts = String(c.ghosts);
    data.pending = String(c.pending);
    data.selected = this.selected === null ? "" : String(this.selected);
    data.highlights = [...this.highlights].sort((a, b) => a - b).join(" ");
    const superseded: number[] = [];
    const conflicts: number[] = [];
    for (const n of this.model.nodes.values()) {
      const marks = correctionMarks(n);
      if (marks.superseded) superseded.push(n.id);
      if (marks.conflict) conflicts.push(n.id);
    }
    data.superseded = superseded.sort((a, b) => a - b).join(" ");
    data.conflicts = conflicts.sort((a, b) => a - b).join(" ");
  }

  private drawLinks(k: number): void {
    const { ctx } = this;
    const bands: GraphLink[][] = Array.from({ length: BANDS }, () => []);
    const pinned: GraphLink[] = [];
    const dangling: GraphLink[] = [];
    for (const l of this.model.links.values()) {
      if (l.dangling || l.target.status === "ghost" || l.source.status === "ghost") dangling.push(l);
      else if (l.pinned) pinned.push(l);
      else bands[Math.min(BANDS - 1, Math.floor(l.strength * BANDS))]?.push(l);
    }
    const stroke = (links: GraphLink[], colour: string, width: number, alpha: number, dash: number[]) => {
      if (links.length === 0) return;
      ctx.beginPath();
      for (const l of links) {
        ctx.moveTo(l.source.x, l.source.y);
        ctx.lineTo(l.target.x, l.target.y);
      }
      ctx.globalAlpha = alpha;
      ctx.strokeStyle = colour;
      ctx.lineWidth = width / k;
      ctx.setLineDash(dash.map((d) => d / k));
      ctx.stroke();
    };
    bands.forEach((links, band) => {
      const sample = { strength: (band + 0.5) / BANDS, dangling: false };
      stroke(links, LINK_COLOUR, linkWidth(sample), linkAlpha(sample), []);
    });
    // Pinned focus links: full strength, in their own colour, with a dash pattern that marks them.
    stroke(pinned, PINNED_COLOUR, 3, 0.75, [10, 3]);
    // Dangling links lead to a ghost: what was forgotten.
    stroke(dangling, GHOST_COLOUR, 1.5, 0.8, [3, 4]);
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
  }

  private drawNodes(k: number): void {
    const { ctx } = this;
    for (const n of this.model.nodes.values()) {
      const r = Math.max(nodeRadius(n), MIN_RADIUS_PX / k);
      ctx.globalAlpha = nodeAlpha(n);
      if (n.status === "ghost") {
        ctx.setLineDash([3 / k, 3 / k]);
        ctx.strokeStyle = GHOST_COLOUR;
        ctx.lineWidth = 1.5 / k;
        circle(ctx, n.x, n.y, r);
        ctx.stroke();
        ctx.setLineDash([]);
        continue;
      }
      if (n.view?.in_focus) {
        // In the focus: a soft halo in the colour of the pinned links it holds (no ring, unlike the marks below).
        ctx.globalAlpha = 0.35;
        ctx.fillStyle = PINNED_COLOUR;
        circle(ctx, n.x, n.y, r + FOCUS_HALO / k);
        ctx.fill();
        ctx.globalAlpha = nodeAlpha(n);
      }
      const colour = n.status === "pending" ? GHOST_COLOUR : kindColour(n.view?.kind);
      // Outline: the size importance gives; fill: the share of the content still held.
      ctx.fillStyle = "#ffffff";
      circle(ctx, n.x, n.y, r);
      ctx.fill();
      ctx.strokeStyle = colour;
      ctx.lineWidth = (n.start ? 3 : 1.5) / k;
      ctx.stroke();
      ctx.fillStyle = colour;
      circle(ctx, n.x, n.y, r * Math.sqrt(retainedShare(n)));
      ctx.fill();
      const marks = correctionMarks(n);
      if (marks.superseded) {
        // Struck through: history, corrected by a newer version.
        ctx.globalAlpha = 0.9;
        ctx.strokeStyle = SUPERSEDED_COLOUR;
        ctx.lineWidth = 2 / k;
        ctx.beginPath();
        ctx.moveTo(n.x - r - 2 / k, n.y + r + 2 / k);
        ctx.lineTo(n.x + r + 2 / k, n.y - r - 2 / k);
        ctx.stroke();
      }
      if (marks.conflict) {
        // Contradicts a memory: a dashed red ring.
        ctx.globalAlpha = 0.9;
        ctx.strokeStyle = CONFLICT_COLOUR;
        ctx.lineWidth = 2 / k;
        ctx.setLineDash([5 / k, 3 / k]);
        circle(ctx, n.x, n.y, r + CONFLICT_RING / k);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    ctx.globalAlpha = 1;
    const ring = (id: number | null, colour: string, gap: number, width: number, dash: number[] = []) => {
      const n = id === null ? undefined : this.model.get(id);
      if (!n) return;
      ctx.strokeStyle = colour;
      ctx.lineWidth = width / k;
      ctx.setLineDash(dash.map((d) => d / k));
      circle(ctx, n.x, n.y, Math.max(nodeRadius(n), MIN_RADIUS_PX / k) + gap / k);
      ctx.stroke();
      ctx.setLineDash([]);
    };
    // Recall and search hits: a solid magenta ring; where a forgotten trace was found: a dotted dark ring.
    for (const id of this.highlights) ring(id, HIT_COLOUR, HIT_RING, 3);
    for (const id of this.traceSources) ring(id, TRACE_COLOUR, HIT_RING, 3, [2, 2]);
    ring(this.selected, SELECTED_COLOUR, SELECTED_RING, 2.5);
  }

  /** Label order: the selection and the node under the pointer, hits, start nodes, then by importance; ghosts last. */
  private labelRank(n: GraphNode): number {
    if (n.id === this.selected) return 0;
    if (n === this.hovered) return 1;
    if (this.highlights.has(n.id) || this.traceSources.has(n.id)) return 2;
    if (n.start) return 3;
    return n.status === "ghost" ? 5 : 4;
  }

  private textWidth(text: string): number {
    let width = this.textWidths.get(text);
    if (width === undefined) {
      if (this.textWidths.size > 5_000) this.textWidths.clear();
      width = this.ctx.measureText(text).width;
      this.textWidths.set(text, width);
    }
    return width;
  }

  /** Labels where they overlap neither another label nor another node; on a collision the less important is left out. */
  private drawLabels(k: number): void {
    const { ctx } = this;
    ctx.font = LABEL_FONT;
    ctx.textBaseline = "middle";
    const drawn = [...this.model.nodes.values()].map((n) => ({
      node: n,
      rank: this.labelRank(n),
      at: { id: n.id, x: n.x * k + this.transform.x, y: n.y * k + this.transform.y, r: Math.max(nodeRadius(n) * k, MIN_RADIUS_PX) },
    }));
    const visible = drawn.filter(({ at }) => at.x >= 0 && at.y >= 0 && at.x <= this.width && at.y <= this.height);
    visible.sort((a, b) => a.rank - b.rank || (b.node.view?.importance ?? 0) - (a.node.view?.importance ?? 0) || a.node.id - b.node.id);
    const texts = new Map<number, string>();
    const candidates: LabelCandidate[] = visible.slice(0, MAX_LABEL_CANDIDATES).map(({ node, rank, at }) => {
      const text = truncate(nodeLabel(node), rank <= 3 ? 48 : 24);
      texts.set(node.id, text);
      return { ...at, width: this.textWidth(text) + 4, height: LABEL_HEIGHT, force: rank <= 1 };
    });
    this.labels = placeLabels(
      candidates,
      drawn.map((d) => d.at),
      this.width,
      this.height,
    );
    for (const label of this.labels) {
      const n = this.model.get(label.id);
      const text = texts.get(label.id);
      if (!n || text === undefined) continue;
      ctx.globalAlpha = n.status === "ghost" ? 0.7 : 1;
      ctx.lineWidth = 3;
      ctx.strokeStyle = "rgba(255,255,255,0.9)";
      ctx.strokeText(text, label.x + 2, label.y + label.height / 2);
      ctx.fillStyle = n.status === "ghost" ? "#4b5563" : "#111827";
      ctx.fillText(text, label.x + 2, label.y + label.height / 2);
    }
    ctx.globalAlpha = 1;
    this.canvas.dataset.labels = String(this.labels.length);
  }

  /** The node under a point in CSS pixels of the canvas, the topmost (last drawn) first. */
  hit(px: number, py: number): GraphNode | undefined {
    const { k, x, y } = this.transform;
    const wx = (px - x) / k;
    const wy = (py - y) / k;
    let best: GraphNode | undefined;
    let bestDistance = Infinity;
    for (const n of this.model.nodes.values()) {
      const r = Math.max(nodeRadius(n), MIN_RADIUS_PX / k) + 3 / k;
      const d = (n.x - wx) ** 2 + (n.y - wy) ** 2;
      if (d <= r * r && d <= bestDistance) {
        best = n;
        bestDistance = d;
      }
    }
    return best;
  }

  private setHovered(node: GraphNode | null): void {
    if (this.hovered === node) return;
    this.hovered = node;
    this.canvas.title = node ? nodeLabel(node) : "";
    this.needsDraw = true;
    this.requestDraw();
  }

  private onPointerDown(e: PointerEvent): void {
    this.canvas.setPointerCapture(e.pointerId);
    this.pointers.set(e.pointerId, { x: e.offsetX, y: e.offsetY });
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      if (a && b) this.pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), k: this.transform.k };
      this.press = null;
    } else {
      this.press = { x: e.offsetX, y: e.offsetY, moved: false };
    }
  }

  private onPointerMove(e: PointerEvent): void {
    const last = this.pointers.get(e.pointerId);
    if (!last) {
      this.setHovered(this.hit(e.offsetX, e.offsetY) ?? null);
      return;
    }
    this.pointers.set(e.pointerId, { x: e.offsetX, y: e.offsetY });
    if (this.pinch && this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      if (!a || !b) return;
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      this.zoomBy((this.pinch.k * distance) / Math.max(1, this.pinch.distance) / this.transform.k, (a.x + b.x) / 2, (a.y + b.y) / 2);
      return;
    }
    if (this.press) {
      if (Math.hypot(e.offsetX - this.press.x, e.offsetY - this.press.y) > 4) this.press.moved = true;
      if (this.press.moved) this.panBy(e.offsetX - last.x, e.offsetY - last.y);
    }
  }

  private onPointerUp(e: PointerEvent): void {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    const press = this.press;
    this.press = null;
    if (!press || press.moved || e.type === "pointercancel") return;
    const node = this.hit(e.offsetX, e.offsetY);
    this.callbacks.select(node ? node.id : null);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    this.zoomBy(Math.exp(-e.deltaY * 0.0015), e.offsetX, e.offsetY);
  }

  private onKey(e: KeyboardEvent): void {
    const step = 60;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => this.panBy(step, 0),
      ArrowRight: () => this.panBy(-step, 0),
      ArrowUp: () => this.panBy(0, step),
      ArrowDown: () => this.panBy(0, -step),
      "+": () => this.zoomBy(1.25),
      "=": () => this.zoomBy(1.25),
      "-": () => this.zoomBy(0.8),
      "0": () => this.resumeFitting(),
      Escape: () => this.callbacks.select(null),
      Enter: () => {
        if (this.selected !== null) this.callbacks.expand(this.selected);
      },
    };
    const action = keys[e.key];
    if (!action || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    action();
  }
}

function circle(ctx: CanvasRenderingContext2D, x: number, y: number, r: number): void {
  ctx.beginPath();
  ctx.arc(x, y, Math.max(0, r), 0, 2 * Math.PI);
}
