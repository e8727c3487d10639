/**
 * Where node labels go on the canvas (pure, unit-tested): candidates come in order of importance
 * (the selected and hovered node first), each is tried right of its node, then left, above and
 * below, and takes the first place that lies inside the canvas and overlaps neither a label placed
 * before it nor another node. A label that finds no such place is not drawn: on a collision the
 * less important one gives way. A forced label (selection, hover) ignores other labels and nodes,
 * so it is always shown, but still stays inside the canvas.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelCandidate {
  id: number;
  /** The node's centre and drawn radius, in canvas pixels. */
  x: number;
  y: number;
  r: number;
  /** The label's size in canvas pixels. */
  width: number;
  height: number;
  force: boolean;
}

export interface PlacedLabel extends Rect {
  id: number;
}

/** Space between a node's edge and its label. */
const GAP = 3;
/** Cell size of the spatial grid the placed rectangles are kept in (a little over a label's height). */
const CELL = 48;

/** Rectangles on a grid of cells, for overlap queries in time proportional to what is nearby. */
class RectGrid {
  private readonly cells = new Map<number, Rect[]>();

  add(rect: Rect): void {
    for (const key of this.keys(rect)) {
      const cell = this.cells.get(key);
      if (cell) cell.push(rect);
      else this.cells.set(key, [rect]);
    }
  }

  overlaps(rect: Rect, ignore?: Rect): boolean {
    for (const key of this.keys(rect)) {
      for (const other of this.cells.get(key) ?? []) if (other !== ignore && intersects(rect, other)) return true;
    }
    return false;
  }

  private *keys(rect: Rect): Generator<number> {
    const x0 = Math.floor(rect.x / CELL);
    const x1 = Math.floor((rect.x + rect.width) / CELL);
    const y0 = Math.floor(rect.y / CELL);
    const y1 = Math.floor((rect.y + rect.height) / CELL);
    // Cells are keyed by one number; the canvas is far smaller than 10 000 cells a side.
    for (let cx = x0; cx <= x1; cx += 1) for (let cy = y0; cy <= y1; cy += 1) yield cx * 10_000 + cy;
  }
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The four places a label may take around its node, in order of preference. */
export function labelSpots(c: LabelCandidate): Rect[] {
  const { x, y, r, width, height } = c;
  return [
    { x: x + r + GAP, y: y - height / 2, width, height },
    { x: x - r - GAP - width, y: y - height / 2, width, height },
    { x: x - width / 2, y: y - r - GAP - height, width, height },
    { x: x - width / 2, y: y + r + GAP, width, height },
  ];
}

function inside(rect: Rect, width: number, height: number): boolean {
  return rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= width && rect.y + rect.height <= height;
}

/** Moves a rectangle the least distance that puts it inside the canvas (a forced label with no spot inside). */
function clampInside(rect: Rect, width: number, height: number): Rect {
  return {
    ...rect,
    x: Math.max(0, Math.min(rect.x, width - rect.width)),
    y: Math.max(0, Math.min(rect.y, height - rect.height)),
  };
}

/**
 * Places labels in the candidates' order. `nodes` are every drawn node's circle (centre and radius
 * in canvas pixels): a label may cover its own node's box but no other node.
 */
export function placeLabels(
  candidates: readonly LabelCandidate[],
  nodes: readonly { id: number; x: number; y: number; r: number }[],
  width: number,
  height: number,
): PlacedLabel[] {
  const labels = new RectGrid();
  const circles = new RectGrid();
  const boxes = new Map<number, Rect>();
  for (const n of nodes) {
    const box = { x: n.x - n.r, y: n.y - n.r, width: 2 * n.r, height: 2 * n.r };
    boxes.set(n.id, box);
    circles.add(box);
  }
  const placed: PlacedLabel[] = [];
  for (const c of candidates) {
    const spots = labelSpots(c).filter((s) => inside(s, width, height));
    const own = boxes.get(c.id);
    let spot = c.force ? spots[0] : spots.find((s) => !labels.overlaps(s) && !circles.overlaps(s, own));
    if (!spot && c.force) spot = clampInside(labelSpots(c)[0] ?? { x: c.x, y: c.y, width: c.width, height: c.height }, width, height);
    if (!spot) continue;
    labels.add(spot);
    placed.push({ id: c.id, ...spot });
  }
  return placed;
}
