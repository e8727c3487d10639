/** getMemoryHistory (docs/design.md, "Memory operations"): a page of a memory's versions, one statement however long the chain. */
import { z } from "zod";
import { defineTask } from "../../engine/define-task";
import type { AgentNetwork, AgentStores } from "../../engine/runtime";
import { historyPage, HistoryPageSchema } from "../shared/memory-history";
import { MAX_HISTORY_PAGE } from "../shared/memory-view";

export const GetMemoryHistoryPayloadSchema = z
  .object({
    node_id: z.number().int().min(1),
    /** Versions with a higher id than this (the previous page's last). */
    after: z.number().int().min(0),
    limit: z.number().int().min(1).max(MAX_HISTORY_PAGE),
  })
  .strict();

export const getMemoryHistoryTask = defineTask({
  lane: "read",
  payload: GetMemoryHistoryPayloadSchema,
  result: HistoryPageSchema,
  async run(rt: AgentStores & AgentNetwork, task) {
    const repos = rt.existingRepos();
    const { node_id: nodeId, after, limit } = task.payload;
    if (!repos) return { status: "done", result: { history: [], total: 0, next_cursor: null, found: false } };
    return { status: "done", result: await historyPage(repos, nodeId, after, limit, rt.now()) };
  },
});
