/**
 * One node with its links as they stand (GET nodes/:id, and the base of GET memories/:id). A node
 * may have any number of links (an entity every memory mentions): the view lists a page of each
 * direction, ordered by the far end and the relation, with the totals and a cursor for the rest,
 * so its size is bounded by the page, never by the node. Importance counts every link. The
 * schemas are the agent's own: the routes give them OpenAPI names and serve them as they are.
 */
import { z } from "zod";
import { importanceOf } from "../../memory/importance";
import { strengthAt } from "../../memory/strength";
import { encodeLinksCursor, type LinkPosition } from "./cursor";
import type { NetworkReader } from "../../engine/network-reader";
import { NODE_FIELDS, nodeFields, viewFields } from "./node-fields";

/** Links per direction in one node view, unless asked otherwise (at most MAX_LINKS_PAGE). */
export const DEFAULT_LINKS_PAGE = 200;
export const MAX_LINKS_PAGE = 1000;

const Position = z.union([z.literal("end"), z.tuple([z.number().int(), z.string()])]).nullable();

/** A page of a node's links: at most `limit` per direction, after where the previous page ended (cursor.ts). */
export const LinksPageSchema = z
  .object({ limit: z.number().int().min(1).max(MAX_LINKS_PAGE), after: z.object({ outgoing: Position, incoming: Position }).strict() })
  .strict();
export type LinksPage = z.infer<typeof LinksPageSchema>;

const LinkViewSchema = z.object({
  source: z.number().int(),
  target: z.number().int(),
  relation: z.string(),
  strength: z.number(),
  pinned: z.boolean(),
  /** The far end no longer exists: a trace of a forgotten memory. */
  dangling: z.boolean(),
  created_at: z.number().int(),
});

const { id: _id, ...VIEWED_FIELDS } = NODE_FIELDS;

export const NodeViewSchema = z.object({
  node_id: z.number().int(),
  /** Every field of the record (node-fields.ts): content, provenance, meta, superseded_by, … */
  ...VIEWED_FIELDS,
  scan_count: z.number().int(),
  in_focus: z.boolean(),
  ...viewFields("importance"),
  /**
   * A page of the node's links in each direction (by the far end's id, then the relation), how
   * many there are, and the cursor of the next page (null when both lists are complete).
   */
  links: z.object({
    outgoing: z.array(LinkViewSchema),
    incoming: z.array(LinkViewSchema),
    total: z.object({ outgoing: z.number().int(), incoming: z.number().int() }),
    next_cursor: z.string().nullable(),
  }),
});
export type NodeView = z.infer<typeof NodeViewSchema>;

export const FIRST_LINKS_PAGE: LinksPage = { limit: DEFAULT_LINKS_PAGE, after: { outgoing: null, incoming: null } };

type LinkView = NodeView["links"]["outgoing"][number];

export async function buildNodeView(
  reader: NetworkReader,
  nodeId: number,
  state: { clock: number; focus: ReadonlySet<number>; scanCount: number },
  page: LinksPage = FIRST_LINKS_PAGE,
): Promise<NodeView | null> {
  const node = (await reader.load([nodeId])).get(nodeId);
  if (!node) return null;
  const links = await reader.linksOf(nodeId);
  const existing = await reader.load([...new Set(links.map((l) => (l.source === nodeId ? l.target : l.source)))]);
  const view = (l: (typeof links)[number]): LinkView => ({
    source: l.source,
    target: l.target,
    relation: l.relation,
    strength: l.pinned ? 1 : strengthAt(l.level, state.clock),
    pinned: l.pinned,
    dangling: !existing.has(l.source === nodeId ? l.target : l.source),
    created_at: l.createdAt,
  });
  const outgoing = links.filter((l) => l.source === nodeId).map(view);
  const incoming = links.filter((l) => l.source !== nodeId).map(view);
  const out = pageOf(outgoing, (l) => l.target, page.after.outgoing, page.limit);
  const into = pageOf(incoming, (l) => l.source, page.after.incoming, page.limit);
  const { id: _node, ...fields } = nodeFields(node);
  return {
    node_id: node.id,
    ...fields,
    scan_count: state.scanCount,
    in_focus: state.focus.has(node.id),
    importance: importanceOf(outgoing.map((l) => l.strength)),
    links: {
      outgoing: out.items,
      incoming: into.items,
      total: { outgoing: outgoing.length, incoming: incoming.length },
      next_cursor: out.next === "end" && into.next === "end" ? null : encodeLinksCursor({ outgoing: out.next, incoming: into.next }),
    },
  };
}

/** Links after `after` in (far end, relation) order, at most `limit`, and where the page ends. */
function pageOf(
  links: readonly LinkView[],
  farEnd: (l: LinkView) => number,
  after: LinkPosition | null,
  limit: number,
): { items: LinkView[]; next: LinkPosition } {
  if (after === "end") return { items: [], next: "end" };
  const key = (l: LinkView): [number, string] => [farEnd(l), l.relation];
  const sorted = [...links].sort((a, b) => compare(key(a), key(b)));
  const rest = after === null ? sorted : sorted.filter((l) => compare(key(l), after) > 0);
  const items = rest.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rest.length <= limit || !last ? "end" : key(last) };
}

function compare(a: readonly [number, string], b: readonly [number, string]): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}
