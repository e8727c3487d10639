/**
 * Updating a memory (docs/design.md, "Memory operations"): the new content becomes a new node of
 * the same kind (provenance: this task) that supersedes the old one. It takes over the old one's
 * links to entities and its explicit links at their current strengths, a 更正 link new → old
 * (strength 1) and a 被更正 link old → new (link_initial_strength) record the correction, and the
 * old node is marked superseded: recall,
 * search and listings show the new content only, the old one stays readable as history until
 * forgetting takes it (src/memory/link-moves.ts). Entities are not memories (merge them instead);
 * a version already superseded answers with the current one.
 */
import { z } from "zod";
import { prepareContent } from "../../memory/explicit-memory";
import { farEnds, supersedeOps } from "../../memory/link-moves";
import { PHRASE_MAX_CODE_POINTS } from "../../models/types";
import { codePointLength, sliceCodePoints } from "../../text/code-points";
import { newNode } from "../../vocabulary/records";
import { networkReader } from "../../engine/network-reader";
import type { AgentModels, AgentStores, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";

export const UpdateMemoryPayloadSchema = z.object({ node_id: z.number().int().min(1), content: z.string().min(1) }).strict();

export const UpdateMemoryResultSchema = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("updated"), node_id: z.number().int(), supersedes: z.number().int(), links_moved: z.number().int() }),
  z.object({ outcome: z.literal("not_found"), node_id: z.number().int() }),
  z.object({ outcome: z.literal("not_a_memory"), node_id: z.number().int(), kind: z.string() }),
  z.object({ outcome: z.literal("superseded"), node_id: z.number().int(), superseded_by: z.number().int() }),
]);
export type UpdateMemoryResult = z.infer<typeof UpdateMemoryResultSchema>;

const finish = (result: UpdateMemoryResult) => ({ status: "done" as const, result });

async function refuseUpdate(
  rt: AgentStores & WritePath & Pick<AgentModels, "model">,
  payload: z.infer<typeof UpdateMemoryPayloadSchema>,
): Promise<UpdateMemoryResult | undefined> {
  const { node_id: id } = payload;
  const repos = rt.existingRepos();
  const old = repos ? (await (await networkReader(rt, repos)).load([id])).get(id) : undefined;
  if (!old) return { outcome: "not_found", node_id: id };
  if (old.kind === "entity") return { outcome: "not_a_memory", node_id: id, kind: old.kind };
  if (old.supersededBy !== null) return { outcome: "superseded", node_id: id, superseded_by: old.supersededBy };
  return undefined;
}

export const updateMemoryTask = defineTask({
  lane: "write",
  allocatesNodes: true,
  resultNodes: ["$.node_id", "$.supersedes"],
  payload: UpdateMemoryPayloadSchema,
  result: UpdateMemoryResultSchema,
  refuse: refuseUpdate,
  async run(rt: AgentStores & WritePath & Pick<AgentModels, "model">, task) {
    const done = readCheckpoint(task, UpdateMemoryResultSchema);
    if (done) return { status: "done", result: done };
    const refused = await refuseUpdate(rt, task.payload);
    if (refused) return finish(refused);
    const { node_id: oldId } = task.payload;
    const reader = await networkReader(rt, await rt.repos());
    const old = (await reader.load([oldId])).get(oldId);
    if (!old) return finish({ outcome: "not_found", node_id: oldId });
    const now = rt.now();
    const content = prepareContent(task.payload.content, now).content;
    const [extraction] = await rt.model.extract([content]);
    const newId = rt.meta.nextNodeId();
    const node = newNode({
      id: newId,
      kind: old.kind,
      name: null,
      content,
      originalLength: codePointLength(content),
      phrase: sliceCodePoints(extraction?.phrase ?? "", 0, PHRASE_MAX_CODE_POINTS),
      keywords: extraction?.keywords ?? [],
      role: old.role,
      speaker: old.speaker,
      sourceMessageIds: [],
      sourceTaskId: task.id,
      messageTime: null,
      createdAt: now,
      meta: { supersedes: oldId },
    });
    const params = rt.meta.params();
    const fromLinks = await reader.linksOf(oldId);
    const { ops, moved } = supersedeOps({
      old,
      newId,
      fromLinks,
      toLinks: [],
      kinds: await reader.load(farEnds(fromLinks, oldId)),
      clock: rt.meta.clock(),
      epoch: task.seq,
      now,
      linkInitialStrength: params.link_initial_strength,
    });
    const result: UpdateMemoryResult = { outcome: "updated", node_id: newId, supersedes: oldId, links_moved: moved };
    await commit(rt, task.id, [{ type: "createNodes", nodes: [node] }, ...ops, { type: "count", counters: { memories_updated: 1 } }], {
      prepare: () => rt.meta.setNextNodeId(newId + 1),
      checkpoint: result,
    });
    return { status: "done", result };
  },
});
