/**
 * Reinforcement of memories the caller used (docs/design.md, "Memory operations"). Recall stays read-only; a caller reports which memories it
 * really used, and each outgoing link of a used memory gains `reinforce_step` in strength (capped
 * at 1; src/memory/link-moves.ts reinforceLinks), so its importance rises by up to reinforce_step
 * per link. A memory is reinforced at most once per compression cycle: the cycle it was last
 * reinforced in is kept in the object (`markReinforced`, committed with the links).
 */
import { expired } from "../../memory/memory-filter";
import { z } from "zod";
import { importanceOf } from "../../memory/importance";
import { reinforceLinks } from "../../memory/link-moves";
import { strengthAt } from "../../memory/strength";
import type { WriteOp } from "../../memory/write-ops";
import type { LinkState, NewLink } from "../../vocabulary/records";
import { networkReader } from "../../engine/network-reader";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";
import type { AgentStores, WritePath } from "../../engine/runtime";

export const ReportFeedbackPayloadSchema = z
  .object({ node_ids: z.array(z.number().int().min(1)).min(1).max(100), used: z.boolean() })
  .strict();

const SKIP_REASONS = ["not_used", "not_found", "not_a_memory", "superseded", "already_reinforced"] as const;

export const ReportFeedbackResultSchema = z.object({
  /** The compression cycle the reinforcement counts in. */
  cycle: z.number().int(),
  reinforced: z.array(z.object({ node_id: z.number().int(), importance_before: z.number(), importance_after: z.number() })),
  skipped: z.array(z.object({ node_id: z.number().int(), reason: z.enum(SKIP_REASONS) })),
});
export type ReportFeedbackResult = z.infer<typeof ReportFeedbackResultSchema>;

export const reportFeedbackTask = defineTask({
  lane: "write",
  payload: ReportFeedbackPayloadSchema,
  result: ReportFeedbackResultSchema,
  async run(rt: AgentStores & WritePath, task) {
    const done = readCheckpoint(task, ReportFeedbackResultSchema);
    if (done) return { status: "done", result: done };
    const ids = [...new Set(task.payload.node_ids)];
    const cycle = rt.meta.get("cycle") ?? 0;
    const result: ReportFeedbackResult = { cycle, reinforced: [], skipped: [] };
    const repos = rt.existingRepos();
    if (!task.payload.used || !repos) {
      const reason: (typeof SKIP_REASONS)[number] = task.payload.used ? "not_found" : "not_used";
      return { status: "done", result: { ...result, skipped: ids.map((node_id) => ({ node_id, reason })) } };
    }
    const reader = await networkReader(rt, repos);
    const nodes = await reader.load(ids);
    const last = rt.feedback.cycles(ids);
    const clock = rt.meta.clock();
    const strengthOf = (l: LinkState) => (l.pinned ? 1 : strengthAt(l.level, clock));
    const outgoing = await reader.outgoingLinks(ids);
    const links: NewLink[] = [];
    const marked: number[] = [];
    for (const id of ids) {
      const node = nodes.get(id);
      const skip = (reason: (typeof SKIP_REASONS)[number]) => result.skipped.push({ node_id: id, reason });
      if (!node || expired(node, rt.now())) skip("not_found");
      else if (node.kind === "entity") skip("not_a_memory");
      else if (node.supersededBy !== null) skip("superseded");
      else if (last.get(id) === cycle) skip("already_reinforced");
      else {
        const own = outgoing.filter((l) => l.source === id);
        const before = importanceOf(own.map(strengthOf));
        const step = reinforceLinks(own, rt.meta.params().reinforce_step, clock, task.seq, strengthOf);
        links.push(...step.links);
        marked.push(id);
        const raised = new Map(step.links.map((l) => [`${l.target}|${l.relation}`, strengthAt(l.level, clock)]));
        const after = importanceOf(own.map((l) => raised.get(`${l.target}|${l.relation}`) ?? strengthOf(l)));
        result.reinforced.push({ node_id: id, importance_before: before, importance_after: after });
      }
    }
    if (marked.length === 0) return { status: "done", result };
    const ops: WriteOp[] = [];
    if (links.length > 0) ops.push({ type: "setLinks", links });
    ops.push({ type: "markReinforced", ids: marked, cycle }, { type: "count", counters: { memories_reinforced: marked.length } });
    await commit(rt, task.id, ops, { checkpoint: result });
    return { status: "done", result };
  },
});
