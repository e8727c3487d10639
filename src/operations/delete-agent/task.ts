/**
 * Deleting an agent (docs/design.md, "Execution model"): every row in its D1 shard (links, nodes, full-text rows,
 * aliases), the registry entry, every vector, and the object's memory state (meta, focus, scan
 * bookkeeping, message ids, local vectors). It runs as a queued write, so whatever was accepted
 * before it is applied first, and writes accepted after it (a remember, a config change) start a
 * fresh agent, whatever the timing of the requests. The object keeps its identity.
 *
 * A large agent is deleted in chunks (docs/deploy.md, "Limits"), each one commit through the write
 * path: first its links, DELETE_LINKS_PER_CHUNK at a time, then its nodes with their full-text rows
 * and vectors, DELETE_NODES_PER_CHUNK at a time. No statement comes near D1's 30-second limit, and
 * other agents of the same database get in between chunks. After DELETE_CHUNKS_PER_SLICE chunks
 * (or the drain's time budget) the task yields and the alarm continues it in a fresh invocation;
 * reads wait, as for any write accepted before them. An interrupted chunk is redone from its stored
 * intent, and each chunk reads what is left, so the deletion resumes wherever it stopped. Last, the
 * registry row goes (primary database), then the object's state, in one final commit.
 */
import { z } from "zod";
import { DELETE_CHUNKS_PER_SLICE, DELETE_LINKS_PER_CHUNK, DELETE_NODES_PER_CHUNK, DRAIN_BUDGET_MS } from "../../config/limits";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";
import type { WritePath } from "../../engine/runtime";

export const DeleteAgentResultSchema = z.object({ nodes: z.number().int() });

/** Rows deleted so far (saved with each chunk's commit). */
const CheckpointSchema = z.object({ links: z.number().int(), nodes: z.number().int(), chunks: z.number().int() });

export const deleteAgentTask = defineTask({
  lane: "write",
  payload: z.null(),
  result: DeleteAgentResultSchema,
  async run(rt: WritePath, task) {
    const repos = rt.existingRepos();
    let cp = readCheckpoint(task, CheckpointSchema) ?? { links: 0, nodes: 0, chunks: 0 };
    if (repos) {
      const started = Date.now();
      for (let chunks = 0; ; chunks++) {
        if (chunks >= DELETE_CHUNKS_PER_SLICE || Date.now() - started >= DRAIN_BUDGET_MS) {
          return { status: "yielded", reason: "time_slice" };
        }
        const keys = await repos.links.someKeys(DELETE_LINKS_PER_CHUNK);
        if (keys.length > 0) {
          cp = { ...cp, links: cp.links + keys.length, chunks: cp.chunks + 1 };
          await commit(rt, task.id, [{ type: "deleteLinks", keys }], { checkpoint: cp });
          continue;
        }
        const ids = await repos.nodes.someIds(DELETE_NODES_PER_CHUNK);
        if (ids.length === 0) break;
        cp = { ...cp, nodes: cp.nodes + ids.length, chunks: cp.chunks + 1 };
        await commit(rt, task.id, [{ type: "deleteNodes", ids }], { checkpoint: cp });
      }
      await repos.registry.remove(repos.agentUid);
    }
    await commit(rt, task.id, [{ type: "purgeAgent", nodeIds: [] }]);
    return { status: "done", result: { nodes: cp.nodes }, resetsAgent: true };
  },
});
