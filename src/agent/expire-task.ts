/**
 * Expiry (docs/design.md, "Expiry is a purge at a time set in advance"): the object's own upkeep
 * kind that purges the memories whose `expires_at` has passed, by the one purge
 * (src/operations/shared/purge.ts), at most EXPIRE_PER_COMMIT a commit. It is a write, queued by
 * the drain when the object's schedule says an expiry is due (AgentState.scheduleDue), so it takes
 * its place behind the writes accepted before it. Reads never wait for it: they treat an expired
 * memory as gone from the moment it expires. A version an expiring memory superseded that does not
 * expire itself is restored first (shared/version-restore.ts): what expires is the memory, not the
 * user's earlier words. After EXPIRE_COMMITS_PER_SLICE commits (or the
 * drain's budget) with more due, it yields and the alarm continues it.
 */
import { z } from "zod";
import { DRAIN_BUDGET_MS } from "../config/limits";
import { commit } from "../engine/write-path";
import { defineTask } from "../engine/define-task";
import type { AgentStores, WritePath } from "../engine/runtime";
import { planPurge } from "../operations/shared/purge";
import { restoreOps } from "../operations/shared/version-restore";

/** Expired memories purged per commit (a purge reads every link of its seeds and of the entities they name). */
export const EXPIRE_PER_COMMIT = 200;
const EXPIRE_COMMITS_PER_SLICE = 25;

export const expireTask = defineTask({
  lane: "write",
  payload: z.null(),
  result: z.object({ expired: z.number().int(), nodes_deleted: z.number().int() }),
  async run(rt: AgentStores & WritePath, task) {
    const started = Date.now();
    let expired = 0;
    let deleted = 0;
    for (let commits = 0; ; commits++) {
      const due = rt.expiries.due(rt.now(), EXPIRE_PER_COMMIT);
      if (due.length === 0) break;
      if (commits >= EXPIRE_COMMITS_PER_SLICE || Date.now() - started >= DRAIN_BUDGET_MS)
        return { status: "yielded", reason: "time_slice" };
      // A version these superseded that is not expiring is current again, not purged with them.
      const repos = rt.existingRepos();
      const now = rt.now();
      if (repos) {
        const doomed = [...(await repos.nodes.load(due)).values()];
        const restore = await restoreOps(repos, doomed, (n) => n.expiresAt !== null && n.expiresAt <= now);
        if (restore.ops.length > 0) await commit(rt, task.id, restore.ops);
      }
      const plan = await planPurge(rt, due, task.seq);
      if (!plan) {
        // Nothing of them is left in the network (an import that never wrote them): the schedule forgets them.
        rt.storage.transactionSync(() => rt.expiries.remove(due));
        continue;
      }
      await commit(rt, task.id, [...plan.ops, { type: "count", counters: { memories_expired: due.length } }]);
      expired += due.length;
      deleted += plan.summary.nodes_deleted.length;
    }
    return { status: "done", result: { expired, nodes_deleted: deleted } };
  },
});
