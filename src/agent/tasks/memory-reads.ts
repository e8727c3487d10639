/**
 * Reading memories (docs/design.md §11): one memory with its links, provenance, facts, conflicts,
 * aliases and history, and a page of memories newest first. Read-lane tasks, so a read sees every
 * write accepted before it (a memory posted a moment ago, an update, a deletion).
 */
import { z } from "zod";
import { importanceOf } from "../../memory/importance";
import { strengthAt } from "../../memory/strength";
import type { MemoryNode } from "../../vocabulary/records";
import { conflictMarks } from "../conflict-marks";
import {
  MemoryListQuerySchema,
  MemoryListResultSchema,
  MemoryReadResultSchema,
  type MemoryListItem,
  type MemoryView,
} from "../memory-views";
import { networkReader } from "../network-reader";
import type { AgentRepos, AgentRuntime } from "../runtime";
import { buildNodeView } from "../node-view";
import { defineTask } from "./define-task";

export const memoryReadTask = defineTask({
  lane: "read",
  payload: z.object({ node_id: z.number().int().min(1) }).strict(),
  result: MemoryReadResultSchema,
  async run(rt, task) {
    const repos = rt.existingRepos();
    return { status: "done", result: { memory: repos ? await readMemory(rt, repos, task.payload.node_id) : null } };
  },
});

export const memoryListTask = defineTask({
  lane: "read",
  payload: MemoryListQuerySchema,
  result: MemoryListResultSchema,
  async run(rt, task) {
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

async function readMemory(rt: AgentRuntime, repos: AgentRepos, nodeId: number): Promise<MemoryView | null> {
  const reader = await networkReader(rt, repos);
  const view = await buildNodeView(reader, nodeId, {
    clock: rt.meta.clock(),
    focus: new Set(rt.focus.ids()),
    scanCount: rt.scans.counts([nodeId], rt.meta.scanCycles()).get(nodeId) ?? 0,
  });
  if (!view) return null;
  const [conflicts, aliases, history] = await Promise.all([
    conflictMarks(reader, [nodeId]),
    view.kind === "entity" ? repos.nodes.aliasesOf(nodeId) : Promise.resolve([]),
    historyOf(rt, repos, nodeId),
  ]);
  return {
    ...view,
    conflicts_with: conflicts.get(nodeId) ?? [],
    aliases: aliases.map((a) => ({ key: a.key, name: a.name })),
    history,
  };
}

/**
 * The versions of a memory, oldest first: those it superseded (and theirs, recursively) and those
 * that superseded it, as long as they exist (forgetting takes old versions like any node).
 */
export async function historyOf(rt: AgentRuntime, repos: AgentRepos, nodeId: number): Promise<MemoryView["history"]> {
  const reader = await networkReader(rt, repos);
  const versions = new Map<number, MemoryNode>();
  const start = (await reader.load([nodeId])).get(nodeId);
  if (!start) return [];
  versions.set(nodeId, start);
  // Newer: follow superseded_by while the corrections exist.
  for (let at = start; at.supersededBy !== null && !versions.has(at.supersededBy);) {
    const next = (await reader.load([at.supersededBy])).get(at.supersededBy);
    if (!next) break;
    versions.set(next.id, next);
    at = next;
  }
  // Older: the nodes each version superseded, layer by layer.
  for (let frontier = [...versions.keys()]; frontier.length > 0;) {
    const older = (await repos.nodes.supersededBy(frontier)).filter((id) => !versions.has(id));
    const loaded = await reader.load(older);
    for (const node of loaded.values()) versions.set(node.id, node);
    frontier = [...loaded.keys()];
  }
  return [...versions.values()]
    .sort((a, b) => a.id - b.id)
    .map((n) => ({ node_id: n.id, content: n.content, created_at: n.createdAt, superseded_by: n.supersededBy }));
}

async function listItems(rt: AgentRuntime, repos: AgentRepos, nodes: readonly MemoryNode[]): Promise<MemoryListItem[]> {
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
