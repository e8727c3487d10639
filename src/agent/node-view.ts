/** One node with its links as they stand (GET nodes/:id, and the base of GET memories/:id). */
import { importanceOf } from "../memory/importance";
import { strengthAt } from "../memory/strength";
import type { NetworkReader } from "./network-reader";
import type { NodeView } from "./view-schemas";

export async function buildNodeView(
  reader: NetworkReader,
  nodeId: number,
  state: { clock: number; focus: ReadonlySet<number>; scanCount: number },
): Promise<NodeView | null> {
  const node = (await reader.load([nodeId])).get(nodeId);
  if (!node) return null;
  const links = await reader.linksOf(nodeId);
  const existing = await reader.load([...new Set(links.map((l) => (l.source === nodeId ? l.target : l.source)))]);
  const view = (l: (typeof links)[number]) => ({
    source: l.source,
    target: l.target,
    relation: l.relation,
    strength: l.pinned ? 1 : strengthAt(l.level, state.clock),
    pinned: l.pinned,
    dangling: !existing.has(l.source === nodeId ? l.target : l.source),
    created_at: l.createdAt,
  });
  const outgoing = links.filter((l) => l.source === nodeId).map(view);
  return {
    node_id: node.id,
    kind: node.kind,
    name: node.name,
    content: node.content,
    original_length: node.originalLength,
    phrase: node.phrase,
    keywords: node.keywords,
    role: node.role,
    speaker: node.speaker,
    source_message_ids: node.sourceMessageIds,
    source_task_id: node.sourceTaskId,
    message_time: node.messageTime,
    created_at: node.createdAt,
    scan_count: state.scanCount,
    in_focus: state.focus.has(node.id),
    superseded_by: node.supersededBy,
    meta: node.meta === null ? null : { ...node.meta },
    importance: importanceOf(outgoing.map((l) => l.strength)),
    links: { outgoing, incoming: links.filter((l) => l.source !== nodeId).map(view) },
  };
}
