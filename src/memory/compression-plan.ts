/**
 * What one scan does to one node (docs/design.md, "Compression" step 2):
 *
 *   importance ≥ 1                          → protected, untouched, however short the content
 *   target = floor(original_length × importance)
 *   target < delete_threshold               → delete the node (outgoing links go with it)
 *   target < current length                 → compress the content to at most `target` code points
 *   otherwise                               → keep (already short enough)
 *
 * scan_count advances in every case. Focus nodes are never scanned (the caller skips them).
 */

export type ScanAction =
  | { action: "protect" }
  | { action: "keep"; target: number }
  | { action: "compress"; target: number }
  | { action: "delete"; target: number };

export interface ScanInput {
  importance: number;
  originalLength: number;
  currentLength: number;
  deleteThreshold: number;
}

export function planScan(input: ScanInput): ScanAction {
  if (input.importance >= 1) return { action: "protect" };
  const target = Math.floor(input.originalLength * Math.max(0, input.importance));
  if (target < input.deleteThreshold) return { action: "delete", target };
  if (target < input.currentLength) return { action: "compress", target };
  return { action: "keep", target };
}
