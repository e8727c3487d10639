/** unlinkMemories (docs/design.md, "Memory operations", unlink_memories): deletes one link by its key (source, target, relation). */
import { z } from "zod";
import { strengthAt } from "../../memory/strength";
import { networkReader } from "../../engine/network-reader";
import type { AgentStores, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";

const finish = <R>(result: R) => ({ status: "done" as const, result });

export const UnlinkMemoriesPayloadSchema = z
  .object({ source: z.number().int().min(1), target: z.number().int().min(1), relation: z.string().min(1) })
  .strict();

export const UnlinkMemoriesResultSchema = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("unlinked"),
    source: z.number().int(),
    target: z.number().int(),
    relation: z.string(),
    strength: z.number(),
  }),
  z.object({ outcome: z.literal("not_found") }),
]);
export type UnlinkMemoriesResult = z.infer<typeof UnlinkMemoriesResultSchema>;

async function linkOf(rt: AgentStores & WritePath, key: z.infer<typeof UnlinkMemoriesPayloadSchema>) {
  const repos = rt.existingRepos();
  const reader = repos ? await networkReader(rt, repos) : undefined;
  return reader ? (await reader.outgoingLinks([key.source], key.relation)).find((l) => l.target === key.target) : undefined;
}

export const unlinkMemoriesTask = defineTask({
  lane: "write",
  payload: UnlinkMemoriesPayloadSchema,
  result: UnlinkMemoriesResultSchema,
  async refuse(rt: AgentStores & WritePath, payload): Promise<UnlinkMemoriesResult | undefined> {
    return (await linkOf(rt, payload)) ? undefined : { outcome: "not_found" };
  },
  async run(rt: AgentStores & WritePath, task) {
    const done = readCheckpoint(task, UnlinkMemoriesResultSchema);
    if (done) return finish(done);
    const { source, target, relation } = task.payload;
    const link = await linkOf(rt, task.payload);
    if (!link) return finish<UnlinkMemoriesResult>({ outcome: "not_found" });
    const strength = link.pinned ? 1 : strengthAt(link.level, rt.meta.clock());
    const result: UnlinkMemoriesResult = { outcome: "unlinked", source, target, relation, strength };
    await commit(rt, task.id, [{ type: "deleteLinks", keys: [{ source, target, relation }] }], { checkpoint: result });
    return finish(result);
  },
});
