/**
 * Visual encoding of the network, as pure functions (unit-tested): node size from importance,
 * colour from kind, fill from how much of the content is left, link width from strength.
 */
import type { NodeView } from "../api/schemas";
import { hasConflicts, isSuperseded } from "./corrections";
import type { GraphLink, GraphNode } from "./model";

/** Colours per node kind. Episodes and explicit memories (DESIGN §11–12) are coming; they have theirs already. */
export const KIND_COLOURS: Readonly<Record<string, string>> = {
  segment: "#2f6fd6",
  entity: "#d98a00",
  episode: "#2e9a5d",
  memory: "#8b4fd1",
};
export const OTHER_KIND_COLOUR = "#6b7280";
export const GHOST_COLOUR = "#9aa3af";
/** A pinned link; an entity in the focus gets a halo of the same colour. */
export const PINNED_COLOUR = "#c2410c";
export const LINK_COLOUR = "#64748b";
/** A recall or search hit: a solid ring. */
export const HIT_COLOUR = "#db2777";
/** A node a recall found a trace of something forgotten behind: a dotted ring. */
export const TRACE_COLOUR = "#374151";
export const SELECTED_COLOUR = "#111827";
/** A superseded version (history): struck through. A memory that contradicts another: a red ring. */
export const SUPERSEDED_COLOUR = "#4b5563";
export const CONFLICT_COLOUR = "#dc2626";

/** What corrections left on a node, as the canvas marks it. */
export function correctionMarks(node: GraphNode): { superseded: boolean; conflict: boolean } {
  if (node.status !== "loaded") return { superseded: false, conflict: false };
  return { superseded: isSuperseded(node.view), conflict: hasConflicts(node.view) };
}

export function kindColour(kind: string | undefined): string {
  return (kind !== undefined && KIND_COLOURS[kind]) || OTHER_KIND_COLOUR;
}

/** Code points, as the API counts lengths (a Chinese character and a Latin letter each count 1). */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/**
 * Radius in screen pixels at zoom 1: grows with the logarithm of importance (a focus entity's
 * importance can be in the hundreds, a fading memory's below 0.1), 4 px to 26 px.
 */
export function nodeRadius(node: GraphNode): number {
  if (node.status === "ghost") return 6;
  if (!node.view) return 4;
  return Math.min(26, 4 + 4 * Math.log2(1 + Math.max(0, node.view.importance)));
}

/** Share of the original content still held, 0..1 (compression shrinks it; DESIGN §6). */
export function retainedShare(node: GraphNode): number {
  const view = node.view;
  if (!view || node.status === "ghost" || view.original_length <= 0) return node.status === "ghost" ? 0 : 1;
  return Math.max(0, Math.min(1, codePoints(view.content) / view.original_length));
}

/** Opacity: a memory fades as its importance falls below 1 (the share of content it may keep). */
export function nodeAlpha(node: GraphNode): number {
  if (node.status === "ghost") return 0.55;
  if (!node.view) return 0.5;
  if (isSuperseded(node.view)) return 0.45;
  return 0.35 + 0.65 * Math.min(1, Math.max(0, node.view.importance));
}

/** Link width in screen pixels at zoom 1: 0.6 px for a link about to break, 4 px at strength 1. */
export function linkWidth(link: Pick<GraphLink, "strength">): number {
  return 0.6 + 3.4 * Math.max(0, Math.min(1, link.strength));
}

export function linkAlpha(link: Pick<GraphLink, "strength" | "dangling">): number {
  if (link.dangling) return 0.6;
  return 0.25 + 0.6 * Math.max(0, Math.min(1, link.strength));
}

/** The label of a node on the canvas: an entity's name, a memory's phrase, or what became of it. */
export function nodeLabel(node: GraphNode): string {
  const view = node.view;
  if (node.status === "ghost") {
    if (!view) return `forgotten #${node.id}`;
    return `forgotten ${view.kind === "entity" ? "entity" : "memory"}: ${shortLabel(view)}`;
  }
  if (!view) return `#${node.id}`;
  return isSuperseded(view) ? `superseded: ${shortLabel(view)}` : shortLabel(view);
}

/** The label of a node in lists: like the canvas's, but a memory shows the start of its content. */
export function listLabel(node: GraphNode): string {
  const view = node.view;
  if (node.status !== "loaded" || !view || view.kind === "entity") return nodeLabel(node);
  return view.content;
}

function shortLabel(view: NodeView): string {
  // An entity's content is its name as written ("Alice"); `name` is the normalised key ("alice").
  if (view.kind === "entity") return view.content || view.name || `#${view.node_id}`;
  return view.phrase || truncate(view.content, 40);
}

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** BCP 47 tag for a text: Han characters make it Chinese (the right glyphs), else English. */
export function langOf(text: string): "zh" | "en" {
  return /\p{Script=Han}/u.test(text) ? "zh" : "en";
}

/**
 * The language most of these texts are in (an agent's memories): Chinese when at least half of
 * those with any letters hold Han characters (the server's rule, docs/design.md "The labels'
 * language"), else English (also for none: the page's own language).
 */
export function dominantLanguage(texts: readonly string[]): "zh" | "en" {
  let chinese = 0;
  let written = 0;
  for (const text of texts) {
    if (!/[\p{L}]/u.test(text)) continue;
    written += 1;
    if (langOf(text) === "zh") chinese += 1;
  }
  return written > 0 && chinese * 2 >= written ? "zh" : "en";
}
