/**
 * The kinds of memory node (docs/design.md §3): a `segment` is a piece of conversation, an `entity` a key
 * entity the segments are about. The one list every layer imports (schemas, storage, vectors).
 */
export const NODE_KINDS = ["segment", "entity"] as const;

export type NodeKind = (typeof NODE_KINDS)[number];

export function isNodeKind(value: unknown): value is NodeKind {
  return typeof value === "string" && (NODE_KINDS as readonly string[]).includes(value);
}
