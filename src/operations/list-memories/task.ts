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
import { NODE_FIELDS, nodeFields, viewFields } from "../shared/node-fields";
import { networkReader } from "../../engine/network-reader";
import type { AgentNetwork, AgentRepos, AgentStores } from "../../engine/runtime";
import { defineTask } from "../../engine/define-task";

const { id: _id, name: _name, original_length: _length, ...LISTED_FIELDS } = NODE_FIELDS;

const MemoryListItemSchema = z.object({
  node_id: z.number().int(),
  /** The record's fields (node-fields.ts) but the entity name and the original length. */
  ...LISTED_FIELDS,
  ...viewFields("importance", "conflicts_with"),
});
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
  return nodes.map((n) => {
    const { id: _node, name: _entity, original_length: _original, ...fields } = nodeFields(n);
    return {
      node_id: n.id,
      ...fields,
      importance: importanceOf(strengths.get(n.id) ?? []),
      conflicts_with: conflicts.get(n.id) ?? [],
    };
  });
}
