/**
 * Deleting a memory (docs/design.md, "Memory operations"): forgetting on purpose.
 *
 * - forget (default): the node goes at once, with its outgoing links, full-text row and vector;
 *   links pointing at it stay, dangling, so a recall passing by still says the agent once knew
 *   something there (a trace). The object notes which task wrote it (no text), for a purge later.
 * - purge (a privacy request): the memory and everything derived from it, through the one purge
 *   (src/operations/shared/purge.ts, docs/design.md, "Purge"): its history, the episodes that
 *   contain it, the entities only it named, every link into them, the message ids only it came
 *   from, the results of the tasks that wrote it (their Idempotency-Keys retired). A memory
 *   forgotten earlier can be purged too: its traces go.
 * - a superseded version is refused (409): its text lives on in the current version, which is the
 *   one to delete (a purge of it takes every earlier version).
 *
 * Entities are not memories: they are forgotten with their links, merged, or purged with the
 * memories that named them.
 */
import { z } from "zod";
import { forgottenNodes } from "../../memory/write-ops";
import { networkReader } from "../../engine/network-reader";
import type { AgentStores, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";
import { planPurge, purgeable } from "../shared/purge";

/** What a deletion uses of the agent's runtime (a purge's scrub of task results is a write of its commit). */
type Runtime = AgentStores & WritePath;

export const DeleteMemoryPayloadSchema = z.object({ node_id: z.number().int().min(1), purge: z.boolean() }).strict();

export const DeleteMemoryResultSchema = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("forgotten"),
    node_id: z.number().int(),
    purged: z.boolean(),
    /**
     * Every node deleted: the memory, and with purge its earlier versions, the episodes that
     * contain any of them and the entities only they named.
     */
    nodes_deleted: z.array(z.number().int()),
    /** Links into them deleted (purge only: a forget leaves them dangling). */
    links_deleted: z.number().int(),
    /** Message ids the agent no longer holds (purge only). */
    messages_released: z.number().int(),
  }),
  z.object({ outcome: z.literal("not_found"), node_id: z.number().int() }),
  z.object({ outcome: z.literal("not_a_memory"), node_id: z.number().int(), kind: z.string() }),
  z.object({ outcome: z.literal("superseded"), node_id: z.number().int(), superseded_by: z.number().int() }),
]);
export type DeleteMemoryResult = z.infer<typeof DeleteMemoryResultSchema>;

const finish = (result: DeleteMemoryResult) => ({ status: "done" as const, result });

async function refuseForget(rt: Runtime, payload: z.infer<typeof DeleteMemoryPayloadSchema>): Promise<DeleteMemoryResult | undefined> {
  const { node_id: id } = payload;
  const repos = rt.existingRepos();
  const node = repos ? (await (await networkReader(rt, repos)).load([id])).get(id) : undefined;
  // A memory forgotten before may still be purged: its traces remain.
  if (!node) return payload.purge && (await purgeable(rt, id)) ? undefined : { outcome: "not_found", node_id: id };
  if (node.kind === "entity") return { outcome: "not_a_memory", node_id: id, kind: node.kind };
  if (node.supersededBy !== null) return { outcome: "superseded", node_id: id, superseded_by: node.supersededBy };
  return undefined;
}

export const deleteMemoryTask = defineTask({
  lane: "write",
  payload: DeleteMemoryPayloadSchema,
  result: DeleteMemoryResultSchema,
  refuse: refuseForget,
  async run(rt: Runtime, task) {
    const done = readCheckpoint(task, DeleteMemoryResultSchema);
    if (done) return { status: "done", result: done };
    const refused = await refuseForget(rt, task.payload);
    if (refused) return finish(refused);
    const { node_id: id, purge } = task.payload;
    if (purge) {
      const plan = await planPurge(rt, [id], task.seq);
      if (!plan) return finish({ outcome: "not_found", node_id: id });
      const { entities_deleted: _entities, ...summary } = plan.summary;
      const result: DeleteMemoryResult = { outcome: "forgotten", node_id: id, purged: true, ...summary };
      await commit(rt, task.id, [...plan.ops, { type: "count", counters: { memories_purged: 1 } }], { checkpoint: result });
      return finish(result);
    }
    const node = (await (await networkReader(rt, await rt.repos())).load([id])).get(id);
    const result: DeleteMemoryResult = {
      outcome: "forgotten",
      node_id: id,
      purged: false,
      nodes_deleted: [id],
      links_deleted: 0,
      messages_released: 0,
    };
    await commit(
      rt,
      task.id,
      [
        { type: "deleteNodes", ids: [id] },
        { type: "recordForgotten", nodes: forgottenNodes(node ? [node] : []) },
        { type: "count", counters: { memories_forgotten: 1 } },
      ],
      { checkpoint: result },
    );
    return finish(result);
  },
});
