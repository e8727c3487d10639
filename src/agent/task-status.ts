/**
 * What the agent answers to reads that are not tasks (task status, focus, one node, stats), as
 * the agent's own zod schemas: the HTTP layer (src/routes/reads.ts) gives them OpenAPI names and
 * serves them as they are, so a change here is a change of the API, checked by the type system.
 */
import { z } from "zod";
import type { VectorIndex } from "../vectors/types";
import { parseJsonRecord } from "../engine/json-record";
import type { AgentRepos } from "../engine/runtime";
import type { TaskRecord, TaskStatus } from "../engine/task-queue";
import { TASK_KINDS } from "./agent-tasks";
import type { StatsView } from "../operations/shared/node-view-schema";

export { buildNodeView } from "../operations/shared/node-view";

export {
  FocusViewSchema,
  NodeViewSchema,
  PingViewSchema,
  StatsViewSchema,
  type FocusView,
  type NodeView,
  type PingView,
  type StatsView,
} from "../operations/shared/node-view-schema";

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
