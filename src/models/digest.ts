/**
 * The digest of a remember's messages (docs/design.md, "Model economy"): segments, their
 * extractions and the episode summary. A provider with `digest` answers one window in one call; one
 * without it (the local model) is asked segment, extract and summarize in turn, which is what a
 * remember did before the digest existed, so the local results are unchanged.
 */
import type { SegmentWindow } from "./call-planner";
import type { CallContext, Extraction, ModelMessage, SmallModel, WindowDigest } from "./types";
import { joinWindowSegments } from "./window-join";
import { codePointLength, sliceCodePoints } from "../text/code-points";

/** The three tasks in turn: segment, extract every segment, summarize the segments. */
export async function digestByTasks(
  model: SmallModel,
  messages: ModelMessage[],
  summaryMax: number,
  ctx?: CallContext,
): Promise<WindowDigest> {
  const segments = messages.length > 0 ? await model.segment(messages, ctx) : [];
  if (segments.length === 0) return { segments: [], extractions: [], summary: "" };
  const texts = segments.map((s) => s.text);
  const extractions = await model.extract(texts, ctx);
  const summary = await model.summarize(texts, summaryMax, ctx);
  return { segments, extractions, summary };
}

export function digestOf(model: SmallModel, messages: ModelMessage[], summaryMax: number, ctx?: CallContext): Promise<WindowDigest> {
  return model.digest ? model.digest(messages, summaryMax, ctx) : digestByTasks(model, messages, summaryMax, ctx);
}

/**
 * The digests of consecutive windows as one: segments joined as joinWindowSegments joins them
 * (where it merges the two pieces of a message cut by a window, their extractions merge too), and
 * the windows' summaries one after the other, cut to `summaryMax` code points.
 */
export function joinWindowDigests(windows: readonly SegmentWindow[], digests: readonly WindowDigest[], summaryMax: number): WindowDigest {
  const extractions: Extraction[] = [];
  let joined = 0;
  digests.forEach((d, k) => {
    const segments = joinWindowSegments(
      windows.slice(0, k + 1),
      digests.slice(0, k + 1).map((x) => x.segments),
    ).length;
    const merged = joined + d.segments.length - segments;
    const rest = d.extractions.slice(merged);
    if (merged > 0) {
      const last = extractions.pop();
      const first = d.extractions[0];
      if (last && first) extractions.push(mergeExtractions(last, first));
    }
    extractions.push(...rest);
    joined = segments;
  });
  const summary = digests
    .map((d) => d.summary.trim())
    .filter((s) => s !== "")
    .join(" ");
  return {
    segments: joinWindowSegments(
      windows,
      digests.map((d) => d.segments),
    ),
    extractions,
    summary: codePointLength(summary) > summaryMax ? sliceCodePoints(summary, 0, summaryMax).trim() : summary,
  };
}

function mergeExtractions(a: Extraction, b: Extraction): Extraction {
  const entities = [...new Set([...a.entities, ...b.entities])].slice(0, Math.max(a.entities.length, b.entities.length, 1));
  return { phrase: a.phrase, keywords: [...new Set([...a.keywords, ...b.keywords])], entities };
}
