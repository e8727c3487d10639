/**
 * Link strength under decay (docs/design.md, "Compression" step 1): every compression cycle multiplies
 * the strength of every link not incident to a focus node by `decay_rate`, and removes links below
 * `link_break_threshold`.
 *
 * Instead of rewriting every link row each cycle, a link stores a log-level
 *
 *     level = ln(strength) + clock        (clock = the agent's decay clock when the strength was set)
 *
 * and the agent's clock advances by -ln(decay_rate) per cycle. Then at any later clock
 *
 *     strength = exp(level - clock) = strength₀ · Π decay_rateᵢ   over the cycles since,
 *
 * exactly one multiplication by the decay rate per cycle, also when decay_rate changes between cycles. Decaying all links is
 * one clock step; the links that break are those whose level falls below clock + ln(threshold).
 *
 * Focus (docs/design.md, "The model"): every link incident to a focus node has strength 1 and does not decay; when
 * the node leaves focus its links restart from strength 1 at that moment. Rewriting every link of
 * an entity hub each time it enters or leaves the focus would cost hundreds of row writes per
 * remember, so the stored rows never change on a focus change. Instead a stored link carries the
 * epoch (task sequence) that wrote its level, a node carries the clock and epoch at which it last
 * left the focus, and the link's effective level is
 *
 *     PINNED_LEVEL                                  if an end is in the focus now
 *     the latest release clock of an end            if an end left the focus after the link's epoch
 *     its stored level                              otherwise
 *
 * (effectiveLevel below; LinkRepo computes the same in SQL). The in-memory graph holds effective
 * levels, materialised as the focus changes.
 */

/** Level of a pinned link (incident to a focus node): far above any reachable clock. */
export const PINNED_LEVEL = 1e15;

/** The level that stores `strength` at `clock`. */
export function levelOf(strength: number, clock: number): number {
  if (!(strength > 0 && strength <= 1)) throw new RangeError(`strength must be in (0, 1], got ${strength}`);
  return Math.log(strength) + clock;
}

/** The strength of a link with `level` at `clock`, in (0, 1]. */
export function strengthAt(level: number, clock: number): number {
  if (level >= PINNED_LEVEL) return 1;
  return Math.min(1, Math.exp(level - clock));
}

/** When a node last left the focus: the decay clock then and the epoch of the task that moved it. */
export interface Release {
  clock: number;
  epoch: number;
}

/**
 * A stored link's level as it stands (see above): `ends` are the releases of its source and target
 * (null when the end never left the focus, or no longer exists).
 */
export function effectiveLevel(link: { level: number; epoch: number }, ends: readonly (Release | null)[], endInFocus: boolean): number {
  if (endInFocus) return PINNED_LEVEL;
  let latest: number | undefined;
  for (const end of ends) if (end && end.epoch > link.epoch && (latest === undefined || end.clock > latest)) latest = end.clock;
  return latest ?? link.level;
}

export function isPinned(level: number): boolean {
  return level >= PINNED_LEVEL;
}

/** The clock after one more compression cycle at `decayRate` ∈ (0, 1]. */
export function advanceClock(clock: number, decayRate: number): number {
  if (!(decayRate > 0 && decayRate <= 1)) throw new RangeError(`decay_rate must be in (0, 1], got ${decayRate}`);
  return clock - Math.log(decayRate);
}

/** Links whose level is below this at `clock` have strength < threshold: they break. */
export function breakLevel(clock: number, threshold: number): number {
  return clock + Math.log(threshold);
}

/** Cycles until a link of `strength` falls below `threshold` at a constant `decayRate` (< 1). */
export function cyclesUntilBreak(strength: number, decayRate: number, threshold: number): number {
  if (decayRate >= 1) return Number.POSITIVE_INFINITY;
  let cycles = 0;
  let clock = 0;
  const level = levelOf(strength, clock);
  while (level >= breakLevel(clock, threshold)) {
    clock = advanceClock(clock, decayRate);
    cycles += 1;
  }
  return cycles;
}
