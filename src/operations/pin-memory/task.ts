/**
 * pinMemory (docs/design.md, "Pins"): a memory becomes a standing instruction. A pinned memory is
 * outside forgetting (compression skips it, capacity never evicts it; it goes only when deleted or
 * purged on purpose) and the context block lists it first; its importance is still the sum of its
 * links, which decay as any others. At most `max_pins` per agent: one more is refused (409), and so
 * are an entity (not a memory) and a version already superseded (its pin moved to the current one).
 * unpinMemory runs the same write with `pinned: false` (src/operations/unpin-memory/task.ts).
 */
import { z } from "zod";
import { MAX_NODE_ID } from "../../config/limits";
import { networkReader } from "../../engine/network-reader";
import type { AgentStores, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask, type RunningTask } from "../../engine/define-task";

type Runtime = AgentStores & WritePath;

export const PinPayloadSchema = z.object({ node_id: z.number().int().min(1) }).strict();
type PinPayload = z.infer<typeof PinPayloadSchema>;

/** A memory's pin after the write, and the agent's pins against its limit. */
export const PinStateSchema = z.object({
  node_id: z.number().int(),
  pinned: z.boolean(),
  /** False when the memory already was as asked (the write changed nothing). */
  changed: z.boolean(),
  /** The agent's pinned memories now, and its `max_pins`. */
  pins: z.number().int(),
  max_pins: z.number().int(),
});

export const PinResultSchema = z.discriminatedUnion("outcome", [
  PinStateSchema.extend({ outcome: z.literal("done") }),
  z.object({ outcome: z.literal("not_found"), node_id: z.number().int() }),
  z.object({ outcome: z.literal("not_a_memory"), node_id: z.number().int(), kind: z.string() }),
  z.object({ outcome: z.literal("superseded"), node_id: z.number().int(), superseded_by: z.number().int() }),
  z.object({ outcome: z.literal("limit"), node_id: z.number().int(), pins: z.number().int(), max_pins: z.number().int() }),
]);
export type PinResult = z.infer<typeof PinResultSchema>;

/** The memory as it stands and the agent's pins: the refusal, or what the write would change. */
async function judge(
  rt: Runtime,
  { node_id: id }: PinPayload,
  pinned: boolean,
): Promise<{ refusal: PinResult } | { state: z.infer<typeof PinStateSchema> }> {
  const repos = rt.existingRepos();
  const reader = repos ? await networkReader(rt, repos) : undefined;
  const node = (await reader?.load([id]))?.get(id);
  if (!reader || !node) return { refusal: { outcome: "not_found", node_id: id } };
  if (node.kind === "entity") return { refusal: { outcome: "not_a_memory", node_id: id, kind: node.kind } };
  if (node.supersededBy !== null) return { refusal: { outcome: "superseded", node_id: id, superseded_by: node.supersededBy } };
  const maxPins = rt.meta.params().max_pins;
  // Every pin counts, however many an import brought or a lowered max_pins left.
  const pins = (await reader.find({ pinned: true }, MAX_NODE_ID)).length;
  const changed = node.pinned !== pinned;
  if (changed && pinned && pins >= maxPins) return { refusal: { outcome: "limit", node_id: id, pins, max_pins: maxPins } };
  return { state: { node_id: id, pinned, changed, pins: pins + (changed ? (pinned ? 1 : -1) : 0), max_pins: maxPins } };
}

/** The refusal of a pin (`pinned`) or an unpin as the memory stands, or undefined. */
export async function refusePin(rt: Runtime, payload: PinPayload, pinned: boolean): Promise<PinResult | undefined> {
  const judged = await judge(rt, payload, pinned);
  return "refusal" in judged ? judged.refusal : undefined;
}

/** Sets a memory's pin (one commit: the flag and a counter), or answers why it cannot. */
export async function runPin(rt: Runtime, task: RunningTask<PinPayload>, pinned: boolean) {
  const done = readCheckpoint(task, PinResultSchema);
  if (done) return { status: "done" as const, result: done };
  const judged = await judge(rt, task.payload, pinned);
  if ("refusal" in judged) return { status: "done" as const, result: judged.refusal };
  const result: PinResult = { outcome: "done", ...judged.state };
  if (judged.state.changed)
    await commit(
      rt,
      task.id,
      [
        { type: "patchNodes", ids: [task.payload.node_id], fields: { pinned } },
        { type: "count", counters: { [pinned ? "memories_pinned" : "memories_unpinned"]: 1 } },
      ],
      { checkpoint: result },
    );
  return { status: "done" as const, result };
}

export const pinMemoryTask = defineTask({
  lane: "write",
  payload: PinPayloadSchema,
  result: PinResultSchema,
  refuse: (rt: Runtime, payload) => refusePin(rt, payload, true),
  run: (rt: Runtime, task) => runPin(rt, task, true),
});
