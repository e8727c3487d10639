/**
 * listMemories (docs/design.md, "Memory operations"): a page of memories, newest first, by a keyset
 * on their ids. A read-lane task, so it sees every write accepted before it.
 */
import { z } from "zod";
import { importanceOf } from "../../memory/importance";
import { strengthAt } from "../../memory/strength";
import { MEMORY_KINDS } from "../../vocabulary/node-kinds";
import type { MemoryNode } from "../../vocabulary/records";
import { conflictMarks } from "../shared/conflict-marks";
import { nodeFields } from "../shared/node-fields";
import { networkReader } from "../../engine/network-reader";
import type { AgentNetwork, AgentRepos, AgentStores } from "../../engine/runtime";
import { defineTask } from "../../engine/define-task";

const MemoryListItemSchema = z.object(
  nodeFields(
    "node_id",
    "kind",
    "content",
    "phrase",
    "keywords",
    "speaker",
    "role",
    "source_message_ids",
    "source_task_id",
    "message_time",
    "created_at",
    "superseded_by",
    "meta",
    "importance",
    "conflicts_with",
  ),
);
type MemoryListItem = z.infer<typeof MemoryListItemSchema>;

export const ListMemoriesPayloadSchema = z
  .object({
    kinds: z.array(z.enum(MEMORY_KINDS)).min(1),
    /** Only memories with a smaller id (the keyset cursor of the previous page). */
    before: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(200),
    include_superseded: z.boolean(),
  })
  .strict();

export const ListMemoriesResultSchema = z.object({
  items: z.array(MemoryListItemSchema),
  /** Pass as `before` for the next page; null on the last page. */
  next_before: z.number().int().nullable(),
});

export const listMemoriesTask = defineTask({
  lane: "read",
  payload: ListMemoriesPayloadSchema,
  result: ListMemoriesResultSchema,
  async run(rt: AgentStores & AgentNetwork, task) {
    const repos = rt.existingRepos();
    if (!repos) return { status: "done", result: { items: [], next_before: null } };
    const q = task.payload;
    const page = await repos.nodes.listMemories({
      kinds: q.kinds,
      before: q.before,
      limit: q.limit + 1,
      includeSuperseded: q.include_superseded,
    });
    const shown = page.slice(0, q.limit);
    const items = await listItems(rt, repos, shown);
    const last = shown.at(-1);
    return { status: "done", result: { items, next_before: page.length > q.limit && last ? last.id : null } };
  },
});

async function listItems(rt: AgentStores & AgentNetwork, repos: AgentRepos, nodes: readonly MemoryNode[]): Promise<MemoryListItem[]> {
  const reader = await networkReader(rt, repos);
  const ids = nodes.map((n) => n.id);
  const clock = rt.meta.clock();
  const [outgoing, conflicts] = await Promise.all([reader.outgoingLinks(ids), conflictMarks(reader, ids)]);
  const strengths = new Map<number, number[]>(ids.map((id) => [id, []]));
  for (const link of outgoing) strengths.get(link.source)?.push(link.pinned ? 1 : strengthAt(link.level, clock));
  return nodes.map((n) => ({
    node_id: n.id,
    kind: n.kind,
    content: n.content,
    phrase: n.phrase,
    keywords: n.keywords,
    speaker: n.speaker,
    role: n.role,
    source_message_ids: n.sourceMessageIds,
    source_task_id: n.sourceTaskId,
    message_time: n.messageTime,
    created_at: n.createdAt,
    superseded_by: n.supersededBy,
    meta: n.meta === null ? null : { ...n.meta },
    importance: importanceOf(strengths.get(n.id) ?? []),
    conflicts_with: conflicts.get(n.id) ?? [],
  }));
}
