/**
 * How a provider with limits (a context window, an output cap) wants one large request cut into
 * calls it can serve (docs/design.md, "Robustness promises": long inputs are cut into windows). The plan is pure data, so the
 * caller can run, retry and fall back per window or batch: one failing window then costs one
 * window, not the whole remember.
 */
import type { CallPlanner, ModelMessage, SegmentWindow } from "./types";

export type { CallPlanner, SegmentWindow };

/** The plan of a provider without limits: one window holding everything. */
export function wholeWindow(messages: readonly ModelMessage[]): SegmentWindow[] {
  return [{ messages: [...messages] }];
}

/** Consecutive slices of `items` of the given sizes (as planned by `extractBatches` and friends). */
export function slicesOf<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (const size of sizes) {
    out.push(items.slice(at, at + size));
    at += size;
  }
  if (at !== items.length) throw new RangeError(`batch sizes cover ${at} of ${items.length} items`);
  return out;
}
