/** Builds the read views (task status, node with links, stats) from stored state. */
import type { NodeView, StatsView, TaskStatusView } from "../api/views";
import { importanceOf } from "../memory/importance";
import { parseJsonRecord } from "./json-record";
import type { VectorIndex } from "../vectors/types";
import type { AgentRepos } from "./runtime";
import type { TaskRecord, TaskStatus } from "./task-queue";

export function taskView(task: TaskRecord): TaskStatusView {
  return {
    task_id: task.id,
    sequence: task.seq,
    kind: task.kind,
    status: task.status,
    attempts: task.attempts,
    created_at: task.createdAt,
    started_at: task.startedAt,
    finished_at: task.finishedAt,
    error: task.error,
    result: parseJsonRecord(task.result),
  };
}

export async function buildNodeView(
  repos: AgentRepos,
  nodeId: number,
  clock: number,
  focus: ReadonlySet<number>,
): Promise<NodeView | null> {
  const node = await repos.nodes.get(nodeId);
  if (!node) return null;
  const { outgoing, incoming } = await repos.links.ofNode(nodeId, clock);
  const farEnds = [...outgoing.map((l) => l.target), ...incoming.map((l) => l.source)];
  const existing = await repos.nodes.load([...new Set(farEnds)]);
  const view = (l: (typeof outgoing)[number], far: number) => ({
    source: l.source,
    target: l.target,
    relation: l.relation,
    strength: l.strength,
    pinned: l.pinned,
    dangling: !existing.has(far),
    created_at: l.createdAt,
  });
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
    scan_count: node.scanCount,
    in_focus: focus.has(node.id),
    importance: importanceOf(outgoing.map((l) => l.strength)),
    links: { outgoing: outgoing.map((l) => view(l, l.target)), incoming: incoming.map((l) => view(l, l.source)) },
  };
}

export async function buildStats(
  repos: AgentRepos | undefined,
  vectors: VectorIndex | undefined,
  queue: Record<TaskStatus, number>,
  focus: number,
  counters: Record<string, number>,
): Promise<StatsView> {
  const [summary, links, dangling] = repos
    ? await Promise.all([repos.nodes.summary(), repos.links.count(), repos.links.danglingCount()])
    : [{ segments: 0, entities: 0, charactersHeld: 0 }, 0, 0];
  const index = vectors ? await vectors.stats() : undefined;
  return {
    nodes: { total: summary.segments + summary.entities, segments: summary.segments, entities: summary.entities },
    links: { total: links, dangling },
    focus,
    queue,
    characters: { held: summary.charactersHeld, remembered: counters.characters_remembered ?? 0 },
    vector_index: vectors && index ? { provider: vectors.name, vectors: index.vectors, bytes: index.bytes } : null,
    counters,
  };
}
