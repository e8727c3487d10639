/**
 * Deleting a memory (docs/design.md, "Memory operations"): forgetting on purpose.
 *
 * - forget (default): the node goes at once, with its outgoing links, full-text row and vector;
 *   links pointing at it stay, dangling, so a recall passing by still says the agent once knew
 *   something there (a trace).
 * - purge (a privacy request): the node and its history (every earlier version it superseded,
 *   recursively), every link into any of them (no trace remains), and the message ids they came
 *   from when no other memory came from the same message, so the message can be remembered again.
 *   The episodes that contain any of them go too (with their links): an episode's summary may
 *   repeat the memory's words (docs/design.md, "Context for prompts"). The results of the tasks that wrote them
 *   (a create, an update) are scrubbed and their Idempotency-Keys retired: no copy of the content
 *   stays in the object either.
 * - a superseded version is refused (409): its text lives on in the current version, which is the
 *   one to delete (a purge of it takes every earlier version).
 *
 * Entities are not memories: they are forgotten with their links, or merged.
 */
import { z } from "zod";
import type { WriteOp } from "../../memory/write-ops";
import type { LinkKey } from "../../vocabulary/records";
import { RELATION } from "../../vocabulary/relations";
import { networkReader } from "../../engine/network-reader";
import type { AgentStores, TaskProgress, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";

/** What a deletion uses of the agent's runtime: a purge also scrubs the results that carried the memory. */
type Runtime = AgentStores & WritePath & Pick<TaskProgress, "scrubPurged">;

export const DeleteMemoryPayloadSchema = z.object({ node_id: z.number().int().min(1), purge: z.boolean() }).strict();

export const DeleteMemoryResultSchema = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("forgotten"),
    node_id: z.number().int(),
    purged: z.boolean(),
    /** Every node deleted: the memory, and with purge its earlier versions and the episodes that contain any of them. */
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
  if (!node) return { outcome: "not_found", node_id: id };
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
    if (done) {
      // Interrupted after the commit: the scrub may not have happened (it is idempotent).
      if (done.outcome === "forgotten" && done.purged) rt.scrubPurged(done.nodes_deleted);
      return { status: "done", result: done };
    }
    const refused = await refuseForget(rt, task.payload);
    if (refused) return finish(refused);
    const { node_id: id, purge } = task.payload;
    const repos = await rt.repos();
    const reader = await networkReader(rt, repos);
    if (!purge) {
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
          { type: "count", counters: { memories_forgotten: 1 } },
        ],
        { checkpoint: result },
      );
      return { status: "done", result };
    }
    // The history chain: the versions this one superseded, recursively (one statement however long).
    const chain = [id, ...(await repos.nodes.olderVersions(id))];
    const inChain = new Set(chain);
    // Every link with an end in the chain, in one read: the episodes that contain a version (their
    // summary may repeat it, docs/design.md, "Context for prompts"), and the links into the chain.
    const clock = rt.meta.clock();
    const chainLinks = await reader.expand(chain, [], clock);
    const containing = new Set(chainLinks.filter((l) => inChain.has(l.target) && l.relation === RELATION.contains).map((l) => l.source));
    const episodes = [...(await reader.load([...containing])).values()].filter((n) => n.kind === "episode").map((n) => n.id);
    const gone = [...chain, ...episodes];
    const purged = new Set(gone);
    const episodeLinks = episodes.length > 0 ? await reader.expand(episodes, [], clock) : [];
    const incoming = new Map<string, LinkKey>();
    for (const link of [...chainLinks, ...episodeLinks]) {
      if (!purged.has(link.target) || purged.has(link.source)) continue;
      incoming.set(JSON.stringify([link.source, link.target, link.relation]), {
        source: link.source,
        target: link.target,
        relation: link.relation,
      });
    }
    // The messages of the versions (an episode's other messages belong to memories kept or forgotten).
    const versions = await reader.load(chain);
    const messageIds = [...new Set([...versions.values()].flatMap((n) => n.sourceMessageIds))];
    const stillUsed = await repos.nodes.messagesStillUsed(messageIds, gone);
    const released = messageIds.filter((m) => !stillUsed.has(m));
    const ops: WriteOp[] = [];
    if (incoming.size > 0) ops.push({ type: "deleteLinks", keys: [...incoming.values()] });
    ops.push({ type: "deleteNodes", ids: gone });
    if (released.length > 0) ops.push({ type: "forgetMessages", ids: released });
    ops.push({ type: "count", counters: { memories_purged: 1 } });
    const result: DeleteMemoryResult = {
      outcome: "forgotten",
      node_id: id,
      purged: true,
      nodes_deleted: gone.sort((a, b) => a - b),
      links_deleted: incoming.size,
      messages_released: released.length,
    };
    await commit(rt, task.id, ops, { checkpoint: result });
    rt.scrubPurged(result.nodes_deleted);
    return { status: "done", result };
  },
});
