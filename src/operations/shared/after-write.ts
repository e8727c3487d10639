/**
 * What follows the commit of new memories (a remember, an explicit memory): the conflict check of
 * the new memories (src/operations/shared/conflict-check.ts), then the capacity bound (src/operations/shared/capacity.ts).
 * Each is a phase of the task's checkpoint, so a task resumed after a crash repeats neither.
 */
import { z } from "zod";
import { enforceCapacity } from "./capacity";
import {
  ConflictStateSchema,
  runConflictCheck,
  type ConflictCheckRuntime,
  type ConflictState,
  type ConflictSummary,
  type ForeseePairs,
} from "./conflict-check";

/** A result that reports the two phases. */
interface PhasedResult {
  nodes_evicted: number;
  conflicts?: ConflictSummary | undefined;
}

export interface AfterWriteCheckpoint<R extends PhasedResult> {
  result: R;
  evicted: boolean;
  /** Absent in checkpoints written before conflict checks, and once eviction has run: nothing left to check. */
  conflicts?: ConflictState | undefined;
}

/** The checkpoint of a task with these phases, around its result's schema. */
export function afterWriteCheckpointSchema<R extends z.ZodTypeAny>(result: R) {
  return z.object({ result, evicted: z.boolean(), conflicts: ConflictStateSchema.optional() });
}

/** Runs the phases left in `checkpoint`; returns the task's result with what they did. */
export async function afterWrite<R extends PhasedResult>(
  rt: ConflictCheckRuntime,
  task: { id: string; seq: number },
  start: AfterWriteCheckpoint<R>,
  foresee?: ForeseePairs,
): Promise<R> {
  let checkpoint = start;
  if (checkpoint.conflicts && checkpoint.conflicts.phase !== "done") {
    const base = checkpoint;
    const summary = await runConflictCheck(rt, task, checkpoint.conflicts, (conflicts) => ({ ...base, conflicts }), foresee);
    checkpoint = { ...base, result: { ...base.result, conflicts: summary }, conflicts: { phase: "done", summary } };
  } else if (checkpoint.conflicts?.phase === "done") {
    // Resumed after the check: its summary is in the checkpoint, not yet in the result.
    checkpoint = { ...checkpoint, result: { ...checkpoint.result, conflicts: checkpoint.conflicts.summary } };
  }
  if (!checkpoint.evicted) {
    const before = checkpoint.result;
    const after = (evicted: number) => ({ result: { ...before, nodes_evicted: evicted }, evicted: true });
    checkpoint = after(await enforceCapacity(rt, task.id, after));
  }
  return checkpoint.result;
}
