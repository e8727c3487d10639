/**
 * What corrections left on a node, read from its view alone (pure, unit-tested): the version that
 * superseded it, the earlier versions it corrects (更正 links), and the memories it contradicts
 * (矛盾 links to memories that still hold; DESIGN §11, conflicts on write).
 */
import type { NodeView } from "../api/schemas";

/** Stored relation names the API uses for corrections (src/vocabulary/relations.ts). */
export const CORRECTS = "更正";
export const CORRECTED_BY = "被更正";
export const CONTRADICTS = "矛盾";

export interface Corrections {
  /** The version that replaced this one: this node is history. */
  supersededBy: number | null;
  /** Earlier versions this one corrected. */
  supersedes: number[];
  /** Memories that cannot both hold with this one (both kept, marked). */
  conflictsWith: number[];
}

/** Views are replaced, never changed, when a node is re-read: the marks are worked out once per view (drawn every frame). */
const cache = new WeakMap<NodeView, Corrections>();

export function correctionsOf(view: NodeView): Corrections {
  const cached = cache.get(view);
  if (cached) return cached;
  const found = compute(view);
  cache.set(view, found);
  return found;
}

function compute(view: NodeView): Corrections {
  const supersededBy = view.superseded_by ?? view.links.outgoing.find((l) => l.relation === CORRECTED_BY && !l.dangling)?.target ?? null;
  const supersedes = unique(view.links.outgoing.filter((l) => l.relation === CORRECTS).map((l) => l.target));
  const conflictsWith = unique(
    [...view.links.outgoing, ...view.links.incoming]
      .filter((l) => l.relation === CONTRADICTS && !l.dangling)
      .map((l) => (l.source === view.node_id ? l.target : l.source))
      .filter((id) => id !== view.node_id),
  );
  return { supersededBy, supersedes, conflictsWith };
}

export function isSuperseded(view: NodeView | null): boolean {
  return view !== null && correctionsOf(view).supersededBy !== null;
}

export function hasConflicts(view: NodeView | null): boolean {
  return view !== null && correctionsOf(view).conflictsWith.length > 0;
}

function unique(ids: number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}
