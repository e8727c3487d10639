/**
 * How a provider with limits (a context window, an output cap) wants one large request cut into
 * calls it can serve (docs/design.md §15: long inputs are cut into windows). The plan is pure data, so the
 * caller can run, retry and fall back per window or batch: one failing window then costs one
 * window, not the whole remember.
 */
import type { ModelMessage, RelationRequest } from "./types";

/**
 * One segmentation call: whole messages, or a part of one long message (same `index`, `content`
 * the verbatim part). Parts of one message are consecutive, so a message is split across two
 * windows at most at one boundary per window.
 */
export interface SegmentWindow {
  messages: ModelMessage[];
  /**
   * Set when the window's first message is the continuation of the previous window's last one:
   * the message index and the whitespace that separated the two parts in the original text, so
   * joined segments reproduce it exactly.
   */
  continuation?: { index: number; gap: string };
}

export interface CallPlanner {
  /** Windows in message order; their concatenated contents are the messages' visible text. */
  segmentWindows(messages: readonly ModelMessage[]): SegmentWindow[];
  /** Windows of a digest (segments, extractions and summary in one answer); default: segmentWindows. */
  digestWindows?(messages: readonly ModelMessage[]): SegmentWindow[];
  /** Sizes of consecutive extraction batches, summing to `texts.length`, none empty. */
  extractBatches(texts: readonly string[]): number[];
  /** Sizes of consecutive relation batches, summing to `requests.length`, none empty. */
  relationBatches(requests: readonly RelationRequest[]): number[];
}

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
