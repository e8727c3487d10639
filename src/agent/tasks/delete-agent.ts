/**
 * Deleting an agent (docs/design.md §7): every row in D1 (nodes, links, full-text rows, the registry
 * entry), every vector, and the object's memory state (meta, focus, scan bookkeeping, message
 * ids, local vectors), as one purge operation through the write path. It runs as a queued write,
 * so whatever was accepted before it is applied first and a deletion interrupted by eviction is
 * redone. The object keeps its identity: writes accepted after the deletion (a remember, a config
 * change) run after it and start a fresh agent, whatever the timing of the requests.
 */
import { z } from "zod";
import { commit } from "../write-path";
import { defineTask } from "./define-task";

export const DeleteResultSchema = z.object({ nodes: z.number().int() });

export const deleteAgentTask = defineTask({
  lane: "write",
  payload: z.null(),
  result: DeleteResultSchema,
  async run(rt, task) {
    const repos = rt.existingRepos();
    const nodeIds = repos ? await repos.nodes.allIds() : [];
    await commit(rt, task.id, [{ type: "purgeAgent", nodeIds }]);
    return { status: "done", result: { nodes: nodeIds.length }, resetsAgent: true };
  },
});
