/**
 * The retry path of the vector index (src/engine/vector-writes.ts): when a commit could not write
 * its vectors, this maintenance task re-reads the nodes (some may be gone by now) and writes
 * them again, with the queue's backoff between attempts. It changes no memory.
 */
import { z } from "zod";
import { writeVectors } from "../engine/vector-writes";
import { defineTask } from "../engine/define-task";
import type { AgentModels, AgentNetwork } from "../engine/runtime";

export const IndexPayloadSchema = z.object({ upsert: z.array(z.number().int()), remove: z.array(z.number().int()) }).strict();

export const indexTask = defineTask({
  lane: "maintenance",
  payload: IndexPayloadSchema,
  result: z.object({ indexed: z.number().int(), removed: z.number().int() }),
  async run(rt: AgentNetwork & Pick<AgentModels, "embedder">, task) {
    const repos = rt.existingRepos();
    const existing = repos ? await repos.nodes.load(task.payload.upsert) : new Map();
    const gone = task.payload.upsert.filter((id) => !existing.has(id));
    const remove = [...task.payload.remove, ...gone];
    await writeVectors(rt, { upsert: [...existing.values()], remove });
    return { status: "done", result: { indexed: existing.size, removed: remove.length } };
  },
});
