/**
 * A task's status as getTask answers it, as the agent's own zod schema: the route gives it its
 * OpenAPI name and serves it as it is, so a change here is a change of the API, checked by the type
 * system.
 */
import { z } from "zod";
import { parseJsonRecord } from "../engine/json-record";
import type { TaskRecord } from "../engine/task-queue";
import { TASK_KINDS } from "./agent-tasks";

export const TaskStatusViewSchema = z.object({
  task_id: z.string(),
  /** Arrival number in the agent's queue. */
  sequence: z.number().int(),
  /** A task kind (a kind stored by another version of the code is shown as stored). */
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
