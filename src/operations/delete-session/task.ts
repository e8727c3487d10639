/**
 * Deleting a session (docs/design.md, "Sessions as a resource"): every memory of the session
 * (segments, explicit memories, episodes, the session's own earlier versions) goes, chunk by
 * chunk, each chunk one commit through the write path.
 *
 * - forget (default): exactly what DELETE memories/:id does to each: the node goes, links into it
 *   stay as traces, the object notes its writer and session (a later purge finds it). A memory of
 *   the session that has expired is left to its own purge (forgetting it would leave a trace of
 *   what must leave none).
 * - purge: the one purge (src/operations/shared/purge.ts, planPurge) of the session's memories and
 *   of those forgotten earlier (the object's notes), with everything derived from them.
 *
 * A version in another session that a memory of this one superseded is restored first, in its own
 * commit: the correction came from the deleted conversation, so the nearest later version that
 * survives becomes its `superseded_by` again, or none. The purge's "earlier versions" are then the
 * session's own.
 *
 * The task is a write: a remember into the session accepted before it is deleted with it, one
 * accepted after it starts the session again. Each chunk reads what is left, so an interrupted
 * deletion resumes where it stopped; after DELETE_CHUNKS_PER_SLICE chunks (or the drain's budget) it
 * yields and the alarm continues it, while later reads wait for it.
 */
import { z } from "zod";
import { DELETE_CHUNKS_PER_SLICE, DELETE_NODES_PER_CHUNK, DRAIN_BUDGET_MS } from "../../config/limits";
import { forgottenNodes, type WriteOp } from "../../memory/write-ops";
import type { AgentRepos, AgentStores, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";
import { restoreOps } from "../shared/version-restore";
import { SessionIdSchema } from "../../vocabulary/memory-filter";
import { planPurge } from "../shared/purge";

type Runtime = AgentStores & WritePath;

/** Seeds per purge commit: a purge reads every link of its seeds and of the entities they name. */
export const PURGE_SEEDS_PER_CHUNK = 100;

export const DeleteSessionPayloadSchema = z.object({ session_id: SessionIdSchema, purge: z.boolean() }).strict();

const Totals = z.object({
  /** Memories of the session deleted (forgotten or purged). */
  memories_deleted: z.number().int(),
  /** Every node deleted: with purge, also the entities only they named. */
  nodes_deleted: z.number().int(),
  /** Links into them deleted (purge only: a forget leaves them as traces). */
  links_deleted: z.number().int(),
  /** Message ids the agent no longer holds (purge only). */
  messages_released: z.number().int(),
  /** Versions in other sessions that a memory of this one had superseded, current again (or re-pointed). */
  versions_restored: z.number().int(),
});

export const DeleteSessionResultSchema = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("deleted"), session_id: z.string(), purged: z.boolean(), ...Totals.shape }),
  z.object({ outcome: z.literal("not_found"), session_id: z.string() }),
]);
export type DeleteSessionResult = z.infer<typeof DeleteSessionResultSchema>;

const CheckpointSchema = Totals.extend({ chunks: z.number().int(), done: z.boolean().default(false) });
type Checkpoint = z.infer<typeof CheckpointSchema>;

const ZERO: Checkpoint = {
  memories_deleted: 0,
  nodes_deleted: 0,
  links_deleted: 0,
  messages_released: 0,
  versions_restored: 0,
  chunks: 0,
  done: false,
};

/**
 * Whether anything of the session is left to delete: its record or a memory it holds; for a
 * purge also a memory that expired or a note of one forgotten (their traces).
 */
async function exists(rt: Runtime, sessionId: string, purge: boolean): Promise<boolean> {
  if (rt.sessions.get(sessionId)) return true;
  if (purge && rt.forgotten.ofSession(sessionId, 0, 1).length > 0) return true;
  const repos = rt.existingRepos();
  return repos !== undefined && (await repos.nodes.ofSession(sessionId, 0, 1, purge ? undefined : rt.now())).length > 0;
}

async function refuseDelete(rt: Runtime, payload: z.infer<typeof DeleteSessionPayloadSchema>): Promise<DeleteSessionResult | undefined> {
  return (await exists(rt, payload.session_id, payload.purge)) ? undefined : { outcome: "not_found", session_id: payload.session_id };
}

export const deleteSessionTask = defineTask({
  lane: "write",
  payload: DeleteSessionPayloadSchema,
  result: DeleteSessionResultSchema,
  refuse: refuseDelete,
  async run(rt: Runtime, task) {
    const { session_id: sessionId, purge } = task.payload;
    let cp = readCheckpoint(task, CheckpointSchema);
    if (!cp) {
      const refused = await refuseDelete(rt, task.payload);
      if (refused) return { status: "done", result: refused };
      cp = ZERO;
    }
    const repos = rt.existingRepos();
    const started = Date.now();
    for (let slice = 0; repos && !cp.done; slice++) {
      // Each chunk's commit saved the totals: the next invocation resumes from them.
      if (slice >= DELETE_CHUNKS_PER_SLICE || Date.now() - started >= DRAIN_BUDGET_MS) return { status: "yielded", reason: "time_slice" };
      cp = purge ? await purgeChunk(rt, repos, task, sessionId, cp) : await forgetChunk(rt, repos, task, sessionId, cp);
    }
    const { chunks: _chunks, done: _done, ...totals } = cp;
    const result: DeleteSessionResult = { outcome: "deleted", session_id: sessionId, purged: purge, ...totals };
    await commit(rt, task.id, [
      { type: "forgetSession", id: sessionId },
      { type: "count", counters: { sessions_deleted: 1 } },
    ]);
    return { status: "done", result };
  },
});

/** One chunk of a forget: the next live memories of the session, their other-session versions restored. */
async function forgetChunk(rt: Runtime, repos: AgentRepos, task: { id: string }, sessionId: string, cp: Checkpoint): Promise<Checkpoint> {
  const nodes = await repos.nodes.ofSession(sessionId, 0, DELETE_NODES_PER_CHUNK, rt.now());
  if (nodes.length === 0) return { ...cp, done: true };
  const restore = await restoreOps(repos, nodes, (n) => n.sessionId === sessionId);
  const ids = nodes.map((n) => n.id);
  const next: Checkpoint = {
    ...cp,
    memories_deleted: cp.memories_deleted + ids.length,
    nodes_deleted: cp.nodes_deleted + ids.length,
    versions_restored: cp.versions_restored + restore.restored,
    chunks: cp.chunks + 1,
  };
  const ops: WriteOp[] = [
    ...restore.ops,
    { type: "deleteNodes", ids },
    { type: "recordForgotten", nodes: forgottenNodes(nodes) },
    { type: "count", counters: { memories_forgotten: ids.length } },
  ];
  await commit(rt, task.id, ops, { checkpoint: next });
  return next;
}

/**
 * One chunk of a purge: the next memories of the session (live, expired or forgotten before), the
 * versions they superseded in other sessions restored in a commit of their own, then purged.
 */
async function purgeChunk(
  rt: Runtime,
  repos: AgentRepos,
  task: { id: string; seq: number },
  sessionId: string,
  cp: Checkpoint,
): Promise<Checkpoint> {
  const nodes = await repos.nodes.ofSession(sessionId, 0, PURGE_SEEDS_PER_CHUNK);
  const forgotten = nodes.length < PURGE_SEEDS_PER_CHUNK ? rt.forgotten.ofSession(sessionId, 0, PURGE_SEEDS_PER_CHUNK - nodes.length) : [];
  if (nodes.length === 0 && forgotten.length === 0) return { ...cp, done: true };
  const restore = await restoreOps(repos, nodes, (n) => n.sessionId === sessionId);
  let next: Checkpoint = { ...cp, versions_restored: cp.versions_restored + restore.restored };
  if (restore.ops.length > 0) await commit(rt, task.id, restore.ops, { checkpoint: next });
  const seeds = [...nodes.map((n) => n.id), ...forgotten.map((f) => f.id)];
  const plan = await planPurge(rt, seeds, task.seq);
  next = { ...next, memories_deleted: next.memories_deleted + nodes.length, chunks: next.chunks + 1 };
  if (!plan) {
    // Nothing of them left (notes of nodes gone without a trace): drop the notes, move on.
    rt.forgotten.drop(forgotten.map((f) => f.id));
    rt.queue.saveCheckpoint(task.id, next);
    return next;
  }
  next = {
    ...next,
    nodes_deleted: next.nodes_deleted + plan.summary.nodes_deleted.length,
    links_deleted: next.links_deleted + plan.summary.links_deleted,
    messages_released: next.messages_released + plan.summary.messages_released,
  };
  await commit(rt, task.id, [...plan.ops, { type: "count", counters: { memories_purged: nodes.length } }], { checkpoint: next });
  return next;
}
