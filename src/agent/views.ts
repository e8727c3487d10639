/**
 * What the agent answers to reads that are not tasks (task status, focus, one node, stats), as
 * the agent's own zod schemas: the HTTP layer (src/api/views.ts) gives them OpenAPI names and
 * serves them as they are, so a change here is a change of the API, checked by the type system.
 */
import { z } from "zod";
import { importanceOf } from "../memory/importance";
import { strengthAt } from "../memory/strength";
import type { VectorIndex } from "../vectors/types";
import { parseJsonRecord } from "./json-record";
import type { NetworkReader } from "./network-reader";
import type { AgentRepos } from "./runtime";
import type { TaskRecord, TaskStatus } from "./task-queue";
import { TASK_KINDS } from "./tasks/registry";
import type { NodeView, StatsView } from "./view-schemas";

export {
  FocusViewSchema,
  NodeViewSchema,
  PingViewSchema,
  StatsViewSchema,
  type FocusView,
  type NodeView,
  type PingView,
  type StatsView,
} from "./view-schemas";

export const TaskStatusViewSchema = z.object({
  task_id: z.string(),
  /** Arrival number in the agent's queue. */
  sequence: z.number().int(),
  /** A kind of the task registry (a kind stored by another version of the code is shown as stored). */
  kind: z.string().describe(`One of: ${TASK_KINDS.join(", ")}.`),
  status: z.enum(["queued", "running", "done", "failed"]),
  attempts: z.number().int(),
  created_at: z.number().int(),
  started_at: z.number().int().nullable(),
  finished_at: z.number().int().nullable(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
});
export type TaskStatusView = z.infer<typeof TaskStatusViewSchema>;

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

export async function buildStats(
  repos: AgentRepos | undefined,
  vectors: VectorIndex | undefined,
  queue: Record<TaskStatus, number>,
  focus: number,
  counters: Record<string, number>,
): Promise<StatsView> {
  const [summary, links, dangling] = repos
    ? await Promise.all([repos.nodes.summary(), repos.links.count(), repos.links.danglingCount()])
    : [{ total: 0, segments: 0, entities: 0, memories: 0, episodes: 0, charactersHeld: 0 }, 0, 0];
  const index = vectors ? await vectors.stats() : undefined;
  return {
    nodes: {
      total: summary.total,
      segments: summary.segments,
      entities: summary.entities,
      memories: summary.memories,
      episodes: summary.episodes,
    },
    links: { total: links, dangling },
    focus,
    queue,
    characters: { held: summary.charactersHeld, remembered: counters.characters_remembered ?? 0 },
    vector_index:
      vectors && index
        ? {
            provider: vectors.name,
            vectors: index.vectors,
            bytes: index.bytes,
            ...(index.shared
              ? {
                  shared_index: {
                    name: index.shared.index,
                    vectors: index.shared.vectors,
                    capacity: index.shared.capacity,
                    full: index.shared.full,
                  },
                }
              : {}),
          }
        : null,
    counters,
  };
}
