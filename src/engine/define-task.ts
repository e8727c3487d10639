/**
 * What a task kind is (docs/design.md, "Task kinds"): its payload schema (the agent's own
 * type, validated once when the task is accepted and parsed again from the stored JSON when it
 * runs, never re-shaped by the HTTP layer), its lane, its result schema and its runner. Declaring
 * a kind is wiring it: the agent's kinds (src/agent/agent-tasks.ts) are a record of these, and the queue, the
 * dispatch, the status view and the RPC surface all take their kinds from it.
 */
import type { z } from "zod";
import type { TaskRuntime } from "./runtime";
import type { Lane } from "./task-queue";

export type { Lane };

/** A queued task as its runner sees it: the payload already parsed into the kind's own type. */
export interface RunningTask<P> {
  id: string;
  seq: number;
  position: number;
  payload: P;
  /** The runner's last saved progress (JSON), or null. */
  checkpoint: string | null;
  attempts: number;
}

/** A task to queue right behind the one that finished (one compression cycle after a remember). */
export interface FollowUp {
  kind: TaskKindName;
  payload: unknown;
}

/** Kinds are named by the agent's task kinds; a follow-up may name any of them (checked when queued). */
export type TaskKindName = string;

export type TaskOutcome<R> =
  | { status: "done"; result: R; followUps?: FollowUp[]; resetsAgent?: boolean }
  /** Background work that stopped for a waiting read or at the end of its time slice. */
  | { status: "yielded"; reason: "read" | "time_slice" };

export interface TaskDefinition<P, R> {
  lane: Lane;
  payload: z.ZodType<P>;
  result: z.ZodType<R>;
  run(rt: TaskRuntime, task: RunningTask<P>): Promise<TaskOutcome<R>>;
  /**
   * A write whose refusal depends on the memory as it stands (a node not found, an entity where a
   * memory is meant): the refusal as the kind's result, or undefined. MemoryAgent.submit asks it in
   * a read turn of the queue (after every write accepted before) before queuing anything, so a
   * refused request leaves no task, no key and no registry row behind (docs/design.md, "Robustness promises"); `run`
   * asks it again, since the memory may change between the two.
   */
  refuse?(rt: TaskRuntime, payload: P): Promise<R | undefined>;
  /**
   * The kind takes new node ids (at most NODE_IDS_PER_WRITE per task): MemoryAgent.submit refuses
   * it while the agent's ids could run past MAX_NODE_ID (src/agent/node-id-room.ts).
   */
  allocatesNodes?: true;
  /**
   * Where its result names a node whose content it carries or names (JSON paths, `$.node_id`,
   * `$.candidates[*].node_id`): a purge of that node takes the result and retires its
   * Idempotency-Key (src/engine/result-scrub.ts). A result of a task that wrote a purged node is
   * taken whatever its paths.
   */
  resultNodes?: readonly string[];
  /** Where its result lists entity names (`$.focus`): a purge takes its entities' names out of them. */
  resultNames?: readonly string[];
  /** The next node id the task sets (an import): reserved like the ids of allocating writes. */
  setsNextNodeId?(payload: P): number | undefined;
}

/**
 * Checks a definition's pieces against each other (payload and result types meet the runner's)
 * and keeps its lane as a literal type, so the kinds of each lane can be told apart.
 */
export function defineTask<P, R, L extends Lane>(definition: TaskDefinition<P, R> & { lane: L }): TaskDefinition<P, R> & { lane: L } {
  return definition;
}
