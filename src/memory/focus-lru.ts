/**
 * The focus LRU (关注点, docs/design.md, "The model"): at most `limit` entity nodes ordered by last
 * mention, most recent first. Only remember changes it; recall never does.
 */

export interface FocusEntry {
  nodeId: number;
  /** The normalised entity key (entityKey), unique per agent. */
  key: string;
  /** The display name as first seen. */
  name: string;
}

export interface FocusChange {
  focus: FocusEntry[];
  entered: FocusEntry[];
  left: FocusEntry[];
}

/**
 * Moves the mentioned entities to the front. `mentioned` is ordered most salient first, so it is
 * applied in reverse: the most salient entity ends up most recent. Entities beyond `limit` fall
 * out from the back (the least recently mentioned).
 */
export function touchFocus(current: readonly FocusEntry[], mentioned: readonly FocusEntry[], limit: number): FocusChange {
  let focus = [...current];
  for (const entry of [...mentioned].reverse()) {
    focus = [entry, ...focus.filter((f) => f.nodeId !== entry.nodeId)];
  }
  focus = focus.slice(0, Math.max(0, limit));
  const before = new Set(current.map((f) => f.nodeId));
  const after = new Set(focus.map((f) => f.nodeId));
  return {
    focus,
    entered: focus.filter((f) => !before.has(f.nodeId)),
    left: current.filter((f) => !after.has(f.nodeId)),
  };
}
