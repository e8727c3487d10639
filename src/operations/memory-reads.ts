/**
 * Reading memories (docs/design.md, "Memory operations"): one memory with its links, provenance, facts, conflicts,
 * aliases and history, and a page of memories newest first. Read-lane tasks, so a read sees every
 * write accepted before it (a memory posted a moment ago, an update, a deletion).
 */
import { importanceOf } from "../memory/importance";
import { strengthAt } from "../memory/strength";
import type { MemoryNode } from "../vocabulary/records";
import { conflictMarks } from "./services/conflict-marks";
import { encodeIdCursor } from "./views/cursor";
import {
  HISTORY_IN_VIEW,
  HistoryQuerySchema,
  HistoryResultSchema,
  MemoryListQuerySchema,
  MemoryListResultSchema,
  MemoryReadQuerySchema,
  MemoryReadResultSchema,
  type HistoryResult,
  type MemoryListItem,
  type MemoryView,
} from "./views/memory-views";
import { networkReader } from "../engine/network-reader";
import type { AgentNetwork, AgentRepos, AgentStores } from "../engine/runtime";
import { buildNodeView, FIRST_LINKS_PAGE } from "./views/node-view";
import type { LinksPage } from "./views/view-schemas";
import { defineTask } from "../engine/define-task";

export const memoryReadTask = defineTask({
  lane: "read",
  payload: MemoryReadQuerySchema,
  result: MemoryReadResultSchema,
  async run(rt: AgentStores & AgentNetwork, task) {
    const repos = rt.existingRepos();
    const { node_id: nodeId, links } = task.payload;
    return { status: "done", result: { memory: repos ? await readMemory(rt, repos, nodeId, links ?? FIRST_LINKS_PAGE) : null } };
  },
});

/** A page of a memory's versions (GET memories/:id/history): one statement however long the chain. */
export const historyTask = defineTask({
  lane: "read",
  payload: HistoryQuerySchema,
  result: HistoryResultSchema,
  async run(rt: AgentStores & AgentNetwork, task) {
    const repos = rt.existingRepos();
    const { node_id: nodeId, after, limit } = task.payload;
    if (!repos) return { status: "done", result: { history: [], total: 0, next_cursor: null, found: false } };
    return { status: "done", result: await historyPage(repos, nodeId, after, limit) };
  },
});

export const memoryListTask = defineTask({
  lane: "read",
  payload: MemoryListQuerySchema,
  result: MemoryListResultSchema,
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

async function readMemory(rt: AgentStores & AgentNetwork, repos: AgentRepos, nodeId: number, links: LinksPage): Promise<MemoryView | null> {
  const reader = await networkReader(rt, repos);
  const view = await buildNodeView(
    reader,
    nodeId,
    {
      clock: rt.meta.clock(),
      focus: new Set(rt.focus.ids()),
      scanCount: rt.scans.counts([nodeId], rt.meta.scanCycles()).get(nodeId) ?? 0,
    },
    links,
  );
  if (!view) return null;
  const [conflicts, aliases, history] = await Promise.all([
    conflictMarks(reader, [nodeId]),
    view.kind === "entity" ? repos.nodes.aliasesOf(nodeId) : Promise.resolve([]),
    historyPage(repos, nodeId, 0, HISTORY_IN_VIEW),
  ]);
  return {
    ...view,
    conflicts_with: conflicts.get(nodeId) ?? [],
    aliases: aliases.map((a) => ({ key: a.key, name: a.name })),
    history: history.history,
    history_next_cursor: history.next_cursor,
  };
}

/**
 * The versions of a memory, oldest first: those it superseded (and theirs, recursively) and those
 * that superseded it, as long as they exist (forgetting takes old versions like any node). One
 * statement (NodeRepo.versions), a page at a time.
 */
async function historyPage(repos: AgentRepos, nodeId: number, after: number, limit: number): Promise<HistoryResult> {
  const { total, page } = await repos.nodes.versions(nodeId, after, limit + 1);
  const shown = page.slice(0, limit);
  const last = shown.at(-1);
  return {
    history: shown.map((v) => ({ node_id: v.id, content: v.content, created_at: v.createdAt, superseded_by: v.supersededBy })),
    total,
    next_cursor: page.length > limit && last ? encodeIdCursor(last.id) : null,
    found: total > 0,
  };
}

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
