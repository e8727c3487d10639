/**
 * The README's item-vs-evidence text match rule, for recall output that has no source ids (plain text
 * or compressed items).
 *
 * With E = content words of the evidence turn, R = content words of one recalled item and
 * s = |E ∩ R|: the item matches if s/|E| ≥ 0.5, or (s/|R| ≥ 0.5 and s ≥ 3); when |E| < 3 it matches
 * only if s = |E| (every content word of a short evidence turn must be there).
 * Matching is item by item: joining all recalled text would let a long recall match everything.
 */

export interface MatchDetail {
  /** |E ∩ R| */
  shared: number;
  /** |E| */
  evidenceSize: number;
  /** |R| */
  itemSize: number;
  matches: boolean;
}

/**
 * Applies the rule to two content-word sets. An evidence turn without content words (|E| = 0, e.g.
 * "Thanks!") never matches: by the letter of the rule s = |E| = 0 would match every item, which would
 * count such turns as found by any recall at all.
 */
export function matchDetail(evidence: ReadonlySet<string>, item: ReadonlySet<string>): MatchDetail {
  let shared = 0;
  for (const w of evidence) if (item.has(w)) shared += 1;
  const evidenceSize = evidence.size;
  const itemSize = item.size;
  let matches: boolean;
  if (evidenceSize === 0) matches = false;
  else if (evidenceSize < 3) matches = shared === evidenceSize;
  else matches = shared / evidenceSize >= 0.5 || (itemSize > 0 && shared / itemSize >= 0.5 && shared >= 3);
  return { shared, evidenceSize, itemSize, matches };
}

/** True when the recalled item (content words R) matches the evidence turn (content words E). */
export function textMatches(evidence: ReadonlySet<string>, item: ReadonlySet<string>): boolean {
  return matchDetail(evidence, item).matches;
}
