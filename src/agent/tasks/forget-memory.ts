/**
 * Deleting a memory (docs/design.md §11, seed 002 DELETE): forgetting on purpose.
 *
 * - forget (default): the node goes at once, with its outgoing links, full-text row and vector;
 *   links pointing at it stay, dangling, so a recall passing by still says the agent once knew
 *   something there (seed 001's trace).
 * - purge (a privacy request): the node and its history (every earlier version it superseded,
 *   recursively), every link into any of them (no trace remains), and the message ids they came
 *   from when no other memory came from the same message, so the message can be remembered again.
 *   Later versions are other memories: purging an old version leaves the current one (purge the
 *   current one to remove the whole chain).
 *
 * Entities are not memories: they are forgotten with their links, or merged.
 */
import { z } from "zod";
import type { WriteOp } from "../../memory/write-ops";
import type { LinkKey } from "../../vocabulary/records";
import { networkReader } from "../network-reader";
import { commit } from "../write-path";
import { readCheckpoint } from "./checkpoint";
import { defineTask } from "./define-task";

export const ForgetPayloadSchema = z.object({ node_id: z.number().int().min(1), purge: z.boolean() }).strict();

export const ForgetResultSchema = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("forgotten"),
    node_id: z.number().int(),
    purged: z.boolean(),
    /** Every node deleted: the memory, and with purge its earlier versions. */
    nodes_deleted: z.array(z.number().int()),
    /** Links into them deleted (purge only: a forget leaves them dangling). */
    links_deleted: z.number().int(),
    /** Message ids the agent no longer holds (purge only). */
    messages_released: z.number().int(),
  }),
  z.object({ outcome: z.literal("not_found"), node_id: z.number().int() }),
  z.object({ outcome: z.literal("not_a_memory"), node_id: z.number().int(), kind: z.string() }),
]);
export type ForgetResult = z.infer<typeof ForgetResultSchema>;

const finish = (result: ForgetResult) => ({ status: "done" as const, result });

export const forgetTask = defineTask({
  lane: "write",
  payload: ForgetPayloadSchema,
  result: ForgetResultSchema,
  async run(rt, task) {
    const done = readCheckpoint(task, ForgetResultSchema);
    if (done) return { status: "done", result: done };
    const { node_id: id, purge } = task.payload;
    const repos = rt.existingRepos();
    const reader = repos ? await networkReader(rt, repos) : undefined;
    const node = reader ? (await reader.load([id])).get(id) : undefined;
    if (!repos || !reader || !node) return finish({ outcome: "not_found", node_id: id });
    if (node.kind === "entity") return finish({ outcome: "not_a_memory", node_id: id, kind: node.kind });
    if (!purge) {
      const result: ForgetResult = {
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
    // The history chain: the versions this one superseded, recursively.
    const chain = [id];
    for (let frontier = [id]; frontier.length > 0;) {
      frontier = (await repos.nodes.supersededBy(frontier)).filter((v) => !chain.includes(v));
      chain.push(...frontier);
    }
    const nodes = await reader.load(chain);
    const purged = new Set(chain);
    const incoming: LinkKey[] = [];
    for (const v of chain)
      for (const link of await reader.linksOf(v))
        if (link.target === v && !purged.has(link.source))
          incoming.push({ source: link.source, target: link.target, relation: link.relation });
    const messageIds = [...new Set([...nodes.values()].flatMap((n) => n.sourceMessageIds))];
    const stillUsed = await repos.nodes.messagesStillUsed(messageIds, chain);
    const released = messageIds.filter((m) => !stillUsed.has(m));
    const ops: WriteOp[] = [];
    if (incoming.length > 0) ops.push({ type: "deleteLinks", keys: incoming });
    ops.push({ type: "deleteNodes", ids: chain });
    if (released.length > 0) ops.push({ type: "forgetMessages", ids: released });
    ops.push({ type: "count", counters: { memories_purged: 1 } });
    const result: ForgetResult = {
      outcome: "forgotten",
      node_id: id,
      purged: true,
      nodes_deleted: chain.sort((a, b) => a - b),
      links_deleted: incoming.length,
      messages_released: released.length,
    };
    await commit(rt, task.id, ops, { checkpoint: result });
    return { status: "done", result };
  },
});
