/**
 * The one write path (docs/design.md, "One write path"). A task describes its changes as a list of
 * write operations (src/memory/write-ops.ts); commit() applies the list everywhere it must go, in
 * this order, as one unit that survives a crash anywhere, each place through its column of the
 * write table (write-table.ts):
 *
 *   1. the intent (operations and the task's next checkpoint) is stored in the object's SQLite;
 *   2. D1: one atomic batch of idempotent statements (d1-writes.ts);
 *   3. the in-memory graph, if loaded (the same operations);
 *   4. the vector index (vector-writes.ts), or an `index` task queued to retry it;
 *   5. in one object transaction: the object's own state (focus, scan bookkeeping, clock, message
 *      ids, counters), its copy of the network (the commit journalled, or the snapshot written
 *      again after a purge: stores/graph-snapshot-store.ts), the task's checkpoint, and the
 *      intent cleared.
 *
 * A task whose intent is still stored when it runs again (the object was evicted, or a step
 * failed) has it redone first: steps 2–4 are idempotent and step 5 happens exactly once. So a
 * crash between D1 and the vector index can no longer leave vectors of deleted nodes behind, and
 * counters move exactly once per committed change.
 */
import { z } from "zod";
import type { NetworkOp, WriteOp } from "../memory/write-ops";
import { runBatch } from "../storage/batch";
import { parseJsonOrUndefined } from "../storage/row-parsing";
import { d1Statements, writesRows } from "./d1-writes";
import type { WritePath } from "./runtime";
import { PermanentTaskError } from "./task-errors";
import { vectorChanges, writeVectors } from "./vector-writes";
import { writeKind, WriteOpSchema } from "./write-table";

const IntentSchema = z.object({ ops: z.array(WriteOpSchema), checkpoint: z.unknown().optional() });
type Intent = z.infer<typeof IntentSchema>;

export interface CommitOptions {
  /** Saved as the task's checkpoint together with the object's state (step 5). */
  checkpoint?: unknown;
  /** Object writes that must be durable before D1 is touched (a plan and its allocated ids). */
  prepare?: () => void;
}

export async function commit(rt: WritePath, taskId: string, ops: readonly WriteOp[], options: CommitOptions = {}): Promise<void> {
  const intent: Intent = { ops: [...ops], ...(options.checkpoint !== undefined ? { checkpoint: options.checkpoint } : {}) };
  rt.storage.transactionSync(() => {
    options.prepare?.();
    rt.intents.put(taskId, JSON.stringify(intent));
  });
  await apply(rt, taskId, intent);
}

/** Redoes the task's stored intent, if it has one (before the task runs again). */
export async function redoIntent(rt: WritePath, taskId: string): Promise<boolean> {
  const stored = rt.intents.get(taskId);
  if (stored === undefined) return false;
  const parsed = IntentSchema.safeParse(parseJsonOrUndefined(stored));
  if (!parsed.success) {
    rt.intents.delete(taskId);
    throw new PermanentTaskError(`unreadable write intent: ${parsed.error.message}`);
  }
  await apply(rt, taskId, parsed.data);
  return true;
}

async function apply(rt: WritePath, taskId: string, intent: Intent): Promise<void> {
  const { ops } = intent;
  // Steps 2–4 take the network writes; the object's bookkeeping waits for step 5.
  const network = ops.filter(isNetworkOp);
  const repos = network.some(writesRows) ? await rt.repos() : rt.existingRepos();
  const statements = d1Statements(repos, network);
  // The agent's own D1 shard (docs/design.md, "Scale and limits"): its rows, and nothing but its rows, live there.
  if (repos && statements.length > 0) await runBatch(repos.d1, statements);
  const graph = rt.loadedGraph();
  if (graph) for (const op of network) writeKind(op.type).graph?.(graph, op);
  const changes = vectorChanges(network);
  let vectorsFailed = false;
  if (changes.upsert.length > 0 || changes.remove.length > 0) {
    try {
      await writeVectors(rt, changes);
    } catch (err) {
      console.warn("vector index write failed; queued for retry", err);
      vectorsFailed = true;
    }
  }
  // A graph loaded while the vectors were written may come from the object's copy, which has no
  // entry of this commit yet: it gets the writes now (applying one twice changes nothing).
  const loaded = rt.loadedGraph();
  if (loaded && loaded !== graph) for (const op of network) writeKind(op.type).graph?.(loaded, op);
  rt.storage.transactionSync(() => {
    for (const op of ops) rt.applyLocal(op);
    rt.keepCopy(
      network,
      ops.some((op) => writeKind(op.type).purges === true),
    );
    if (vectorsFailed) rt.queueIndexRetry({ upsert: changes.upsert.map((n) => n.id), remove: changes.remove });
    if (intent.checkpoint !== undefined) rt.queue.saveCheckpoint(taskId, intent.checkpoint);
    rt.intents.delete(taskId);
  });
}

/** A network write: one whose row reaches D1 (the table's type gives every network write a D1 column). */
function isNetworkOp(op: WriteOp): op is NetworkOp {
  return writeKind(op.type).d1 !== undefined;
}
