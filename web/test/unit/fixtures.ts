/** Node views as the API sends them, typed with the API's published response types (the SDK's, generated from the OpenAPI document). */
import type { Node as NodeView } from "../../../sdk/src/generated/operations";

type Link = NodeView["links"]["outgoing"][number];

export function link(source: number, target: number, strength: number, extra: Partial<Link> = {}): Link {
  return { source, target, relation: "关于", strength, pinned: false, dangling: false, created_at: 1, ...extra };
}

export function nodeView(id: number, outgoing: Link[] = [], incoming: Link[] = [], extra: Partial<NodeView> = {}): NodeView {
  return {
    node_id: id,
    kind: "segment",
    name: null,
    content: `memory ${id}`,
    original_length: 8,
    phrase: `phrase ${id}`,
    keywords: ["memory"],
    role: "user",
    speaker: null,
    source_message_ids: [`m${id}`],
    source_task_id: "tsk_abcdefgh",
    message_time: null,
    created_at: 1,
    scan_count: 0,
    in_focus: false,
    superseded_by: null,
    meta: null,
    pinned: false,
    importance: outgoing.reduce((s, l) => s + l.strength, 0),
    links: { outgoing, incoming, total: { outgoing: outgoing.length, incoming: incoming.length }, next_cursor: null },
    ...extra,
  };
}
