/**
 * The forgetting chart: characters held and node count over compression cycles, two lines on
 * their own scales, drawn as a small SVG by hand (no chart library). `chartGeometry` is pure.
 */
export interface CyclePoint {
  cycle: number;
  held: number;
  nodes: number;
}

export interface ChartGeometry {
  held: string;
  nodes: string;
  maxHeld: number;
  maxNodes: number;
  firstCycle: number;
  lastCycle: number;
}

const W = 360;
const H = 170;
const PAD = { left: 44, right: 40, top: 12, bottom: 26 };

/** Polyline points of both series in the chart's coordinates (y grows downwards; 0 at the bottom). */
export function chartGeometry(points: readonly CyclePoint[], width = W, height = H): ChartGeometry {
  const first = points[0]?.cycle ?? 0;
  const last = points.at(-1)?.cycle ?? 0;
  const span = Math.max(1, last - first);
  const maxHeld = Math.max(1, ...points.map((p) => p.held));
  const maxNodes = Math.max(1, ...points.map((p) => p.nodes));
  const x = (c: number) => PAD.left + ((c - first) / span) * (width - PAD.left - PAD.right);
  const y = (v: number, max: number) => height - PAD.bottom - (v / max) * (height - PAD.top - PAD.bottom);
  const line = (value: (p: CyclePoint) => number, max: number) =>
    points.map((p) => `${x(p.cycle).toFixed(1)},${y(value(p), max).toFixed(1)}`).join(" ");
  return {
    held: line((p) => p.held, maxHeld),
    nodes: line((p) => p.nodes, maxNodes),
    maxHeld,
    maxNodes,
    firstCycle: first,
    lastCycle: last,
  };
}

const SVG = "http://www.w3.org/2000/svg";

function el(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

export function renderChart(points: readonly CyclePoint[]): SVGSVGElement {
  const g = chartGeometry(points);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  const last = points.at(-1);
  svg.setAttribute(
    "aria-label",
    points.length === 0
      ? "No cycles recorded yet"
      : `Over cycles ${g.firstCycle} to ${g.lastCycle}: characters held from ${points[0]?.held} to ${last?.held}, nodes from ${points[0]?.nodes} to ${last?.nodes}`,
  );
  const bottom = H - PAD.bottom;
  svg.append(
    el("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: bottom }),
    el("line", { class: "axis", x1: W - PAD.right, y1: PAD.top, x2: W - PAD.right, y2: bottom }),
    el("line", { class: "axis", x1: PAD.left, y1: bottom, x2: W - PAD.right, y2: bottom }),
    el("text", { x: PAD.left - 4, y: PAD.top + 8, "text-anchor": "end" }, String(g.maxHeld)),
    el("text", { x: PAD.left - 4, y: bottom, "text-anchor": "end" }, "0"),
    el("text", { x: W - PAD.right + 4, y: PAD.top + 8 }, String(g.maxNodes)),
    el("text", { x: W - PAD.right + 4, y: bottom }, "0"),
    el("text", { x: PAD.left, y: H - 8 }, `cycle ${g.firstCycle}`),
    el("text", { x: W - PAD.right, y: H - 8, "text-anchor": "end" }, `cycle ${g.lastCycle}`),
    el("text", { x: W / 2, y: H - 8, "text-anchor": "middle" }, "— characters held  - - nodes"),
  );
  if (points.length > 0) {
    svg.append(el("polyline", { class: "held", points: g.held }), el("polyline", { class: "nodes", points: g.nodes }));
  }
  return svg;
}
