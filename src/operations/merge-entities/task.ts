/**
 * A manual entity merge (docs/design.md, "Memory operations", entity resolution): two
 * entity nodes that name one thing become one. The survivor takes over the absorbed entity's links
 * at their current strengths (src/memory/link-moves.ts), the absorbed entity's key and aliases
 * become aliases of the survivor (a later mention of either name meets it), the absorbed node is
 * deleted, and the focus follows: where the absorbed entity stood, the survivor stands.
 */
import { z } from "zod";
import { moveLinks } from "../../memory/link-moves";
import type { WriteOp } from "../../memory/write-ops";
import type { EntityAlias, MemoryNode } from "../../vocabulary/records";
import { networkReader } from "../../engine/network-reader";
import type { AgentStores, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";

export const MergeEntitiesPayloadSchema = z.object({ node_id: z.number().int().min(1), into: z.number().int().min(1) }).strict();

export const MergeEntitiesResultSchema = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("merged"),
    survivor: z.number().int(),
    absorbed: z.number().int(),
    links_moved: z.number().int(),
    /** Every name that now leads to the survivor besides its own. */
    aliases: z.array(z.string()),
  }),
  z.object({ outcome: z.literal("not_found"), node_id: z.number().int() }),
  z.object({ outcome: z.literal("not_an_entity"), node_id: z.number().int(), kind: z.string() }),
  z.object({ outcome: z.literal("same_node"), node_id: z.number().int() }),
]);
export type MergeEntitiesResult = z.infer<typeof MergeEntitiesResultSchema>;

const finish = (result: MergeEntitiesResult) => ({ status: "done" as const, result });

async function refuseMerge(
  rt: AgentStores & WritePath,
  payload: z.infer<typeof MergeEntitiesPayloadSchema>,
): Promise<MergeEntitiesResult | undefined> {
  const { node_id: absorbedId, into: survivorId } = payload;
  if (absorbedId === survivorId) return { outcome: "same_node", node_id: absorbedId };
  const repos = rt.existingRepos();
  const nodes = repos ? await (await networkReader(rt, repos)).load([absorbedId, survivorId]) : new Map<number, MemoryNode>();
  for (const id of [absorbedId, survivorId]) {
    const node = nodes.get(id);
    if (!node) return { outcome: "not_found", node_id: id };
    if (node.kind !== "entity") return { outcome: "not_an_entity", node_id: id, kind: node.kind };
  }
  return undefined;
}

export const mergeEntitiesTask = defineTask({
  lane: "write",
  payload: MergeEntitiesPayloadSchema,
  result: MergeEntitiesResultSchema,
  refuse: refuseMerge,
  // A purge of the survivor takes the merge's result; a purged name leaves its list of aliases.
  resultNodes: ["$.survivor"],
  resultNames: ["$.aliases"],
  async run(rt: AgentStores & WritePath, task) {
    const done = readCheckpoint(task, MergeEntitiesResultSchema);
    if (done) return finish(done);
    const refused = await refuseMerge(rt, task.payload);
    if (refused) return finish(refused);
    const { node_id: absorbedId, into: survivorId } = task.payload;
    const repos = await rt.repos();
    const reader = await networkReader(rt, repos);
    const nodes = await reader.load([absorbedId, survivorId]);
    const absorbed = nodes.get(absorbedId);
    if (!absorbed) return finish({ outcome: "not_found", node_id: absorbedId });
    const clock = rt.meta.clock();
    const move = moveLinks({
      from: absorbedId,
      to: survivorId,
      fromLinks: await reader.linksOf(absorbedId),
      toLinks: await reader.linksOf(survivorId),
      clock,
      epoch: task.seq,
    });
    const aliases: EntityAlias[] = [
      ...(absorbed.name !== null ? [{ key: absorbed.name, name: absorbed.content, nodeId: survivorId }] : []),
      ...(await repos.nodes.aliasesOf(absorbedId)).map((a) => ({ ...a, nodeId: survivorId })),
    ];
    const ops: WriteOp[] = [];
    if (move.removed.length > 0) ops.push({ type: "deleteLinks", keys: move.removed });
    if (move.moved.length > 0) ops.push({ type: "setLinks", links: move.moved });
    if (aliases.length > 0) ops.push({ type: "addAliases", aliases });
    ops.push({ type: "deleteNodes", ids: [absorbedId] });
    const focus = rt.focus.list();
    if (focus.some((f) => f.nodeId === absorbedId)) {
      const survivor = nodes.get(survivorId);
      const survivorEntry = { nodeId: survivorId, key: survivor?.name ?? "", name: survivor?.content ?? "" };
      const next = focus.flatMap((f) => (f.nodeId === absorbedId ? [survivorEntry] : f.nodeId === survivorId ? [] : [f]));
      // The survivor takes the absorbed entity's place, or keeps its own if it stood earlier.
      const merged =
        focus.findIndex((f) => f.nodeId === survivorId) < focus.findIndex((f) => f.nodeId === absorbedId) &&
        focus.some((f) => f.nodeId === survivorId)
          ? focus.filter((f) => f.nodeId !== absorbedId)
          : next;
      ops.push({ type: "setFocus", focus: merged, released: [], clock, epoch: task.seq });
    }
    ops.push({ type: "count", counters: { entities_merged: 1 } });
    const result: MergeEntitiesResult = {
      outcome: "merged",
      survivor: survivorId,
      absorbed: absorbedId,
      links_moved: move.moved.length + move.kept,
      aliases: [...new Set(aliases.map((a) => a.name))],
    };
    await commit(rt, task.id, ops, { checkpoint: result });
    return finish(result);
  },
});
