/**
 * Joins the segments of consecutive segmentation windows (call-planner.ts) into one list. Windows
 * cut long messages at sentence boundaries, which are legitimate segment boundaries, so segments
 * are kept as they are, with one exception: where a message continues into the next window, the
 * last segment before the cut and the first after it are pieces of one message that the model
 * never saw together. When both are plain slices of that message and together still fit one
 * segment (the local segmenter's size limit), they are merged with the original whitespace
 * between them, so a window boundary leaves no fragment behind. Nothing is dropped or repeated:
 * every segment of every window appears once, in order.
 */
import type { SegmentWindow } from "./call-planner";
import { segmentLimit } from "./local/local-segmenter";
import type { SegmentDraft } from "./types";
import { codePointLength } from "../text/code-points";

export function joinWindowSegments(windows: readonly SegmentWindow[], results: readonly (readonly SegmentDraft[])[]): SegmentDraft[] {
  if (windows.length !== results.length) throw new RangeError(`${windows.length} windows but ${results.length} results`);
  const out: SegmentDraft[] = [];
  windows.forEach((window, k) => {
    const segments = results[k] ?? [];
    const first = segments[0];
    const last = out.at(-1);
    const cont = window.continuation;
    if (cont && first && last && onlyMessage(last, cont.index) && onlyMessage(first, cont.index)) {
      const merged = `${last.text}${cont.gap}${first.text}`;
      if (codePointLength(merged) <= segmentLimit(merged)) {
        out[out.length - 1] = { text: merged, messageIndexes: [cont.index] };
        out.push(...segments.slice(1));
        return;
      }
    }
    out.push(...segments);
  });
  return out;
}

function onlyMessage(segment: SegmentDraft, index: number): boolean {
  return segment.messageIndexes.length === 1 && segment.messageIndexes[0] === index;
}
