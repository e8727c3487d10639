/**
 * How many compression cycles it takes for forgetting to show (pure, unit-tested; derivation in
 * docs/design.md, "How many cycles forgetting takes to show"). Every cycle multiplies the strength
 * of each link not touching a focus entity by `decay_rate` (links below `link_break_threshold`
 * break), then scans every node outside the focus: one whose importance — the sum of its outgoing
 * link strengths — is below 1 is compressed to ⌊original length × importance⌋ code points, and
 * deleted once that is below `delete_threshold`. At the default 0.97 a few cycles change nothing
 * visible, at 0.5 two do a lot: the page says which, for the agent's parameters and what it shows.
 */
import type { NodeView } from "../api/schemas";

export interface DecayParams {
  decay_rate: number;
  link_initial_strength: number;
  link_break_threshold: number;
  delete_threshold: number;
}

/** The server's defaults (src/config/params.ts), for a configuration that does not name them. */
export const DEFAULT_DECAY: DecayParams = {
  decay_rate: 0.97,
  link_initial_strength: 0.5,
  link_break_threshold: 0.01,
  delete_threshold: 5,
};

/** The fewest whole cycles c ≥ 1 with from · decay^c < below, or null if decay never gets there (decay 1, or below ≤ 0). */
export function cyclesUntilBelow(from: number, below: number, decay: number): number | null {
  if (below <= 0) return null;
  if (from < below) return 1;
  if (!(decay > 0 && decay < 1)) return null;
  // from · d^c < below  ⇔  c > ln(below / from) / ln d (ln d < 0); the smallest whole c above it.
  let c = Math.max(1, Math.floor(Math.log(below / from) / Math.log(decay)) + 1);
  // Floating point can land one off at an exact power: step to the true smallest c.
  while (c > 1 && from * decay ** (c - 1) < below) c -= 1;
  while (from * decay ** c >= below) c += 1;
  return c;
}

/** Cycles until a link keeps at most half its strength: a link's width on screen visibly halves. */
export function halvingCycles(decay: number): number | null {
  return cyclesUntilBelow(1, 0.5 + Number.EPSILON, decay);
}

/** Cycles until a new link between consecutive segments (initial strength) breaks. */
export function breakCycles(p: DecayParams): number | null {
  return cyclesUntilBelow(p.link_initial_strength, p.link_break_threshold, p.decay_rate);
}

/**
 * When the next scans change a node: after how many cycles it is compressed (its target length
 * falls below its current length) and after how many it is deleted (the target falls below the
 * delete threshold). Its importance after c cycles is its pinned links (a focus entity at one end:
 * strength 1 while it stays in the focus) plus its other links × decay^c; ⌊n⌋ < m for a whole m
 * means n < m, so each change happens once importance < min(1, length / original length). Null:
 * never, while the focus stays as it is (a focus node is not scanned at all), or for a pinned memory.
 */
export function nodeForecast(view: NodeView, p: DecayParams): { shrink: number | null; forget: number | null } {
  // A pinned memory is outside forgetting, as a focus node is (docs/design.md, "Pins").
  if (view.in_focus || view.pinned || view.original_length <= 0) return { shrink: null, forget: null };
  let pinned = 0;
  let decaying = 0;
  for (const l of view.links.outgoing) {
    if (l.pinned) pinned += l.strength;
    else decaying += l.strength;
  }
  const length = [...view.content].length;
  const when = (share: number) => cyclesUntilBelow(decaying, Math.min(1, share) - pinned, p.decay_rate);
  return { shrink: when(length / view.original_length), forget: when(p.delete_threshold / view.original_length) };
}

export interface Forecast {
  halving: number | null;
  breaking: number | null;
  /** The node shown that the scans change first (compressed, or deleted), and after how many cycles. */
  firstShrink: { nodeId: number; cycles: number } | null;
  /** The node shown that is forgotten (deleted, a ghost) first, and after how many cycles. */
  firstForgotten: { nodeId: number; cycles: number } | null;
  /**
   * Cycles to try: until the first node shown is forgotten (the plainest change: a ghost, one node
   * fewer in the chart), else until the first shrinks, else until links are half as strong.
   */
  suggested: number | null;
}

export function forecast(p: DecayParams, shown: readonly NodeView[]): Forecast {
  let firstShrink: Forecast["firstShrink"] = null;
  let firstForgotten: Forecast["firstForgotten"] = null;
  for (const view of shown) {
    const { shrink, forget } = nodeForecast(view, p);
    const change = shrink === null ? forget : forget === null ? shrink : Math.min(shrink, forget);
    if (change !== null && (firstShrink === null || change < firstShrink.cycles)) firstShrink = { nodeId: view.node_id, cycles: change };
    if (forget !== null && (firstForgotten === null || forget < firstForgotten.cycles))
      firstForgotten = { nodeId: view.node_id, cycles: forget };
  }
  const halving = halvingCycles(p.decay_rate);
  return {
    halving,
    breaking: breakCycles(p),
    firstShrink,
    firstForgotten,
    suggested: firstForgotten?.cycles ?? firstShrink?.cycles ?? halving,
  };
}
