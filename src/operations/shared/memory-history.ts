/**
 * The versions of a memory (docs/design.md, "Memory operations"): what a memory view lists
 * (getMemory) and what getMemoryHistory pages through.
 */
import { z } from "zod";
import type { AgentRepos } from "../../engine/runtime";
import { encodeIdCursor } from "./cursor";
import { HistoryEntrySchema } from "./memory-view";

/** A page of a memory's versions, oldest first; `found` is false when the node does not exist. */
export const HistoryPageSchema = z.object({
  history: z.array(HistoryEntrySchema),
  total: z.number().int(),
  next_cursor: z.string().nullable(),
  found: z.boolean(),
});
export type HistoryPage = z.infer<typeof HistoryPageSchema>;

/**
 * The versions of a memory, oldest first: those it superseded (and theirs, recursively) and those
 * that superseded it, as long as they exist (forgetting takes old versions like any node) and have
 * not expired at `now`. One statement (NodeRepo.versions), a page at a time.
 */
export async function historyPage(repos: AgentRepos, nodeId: number, after: number, limit: number, now: number): Promise<HistoryPage> {
  const { total, page } = await repos.nodes.versions(nodeId, after, limit + 1, now);
  const shown = page.slice(0, limit);
  const last = shown.at(-1);
  return {
    history: shown.map((v) => ({ node_id: v.id, content: v.content, created_at: v.createdAt, superseded_by: v.supersededBy })),
    total,
    next_cursor: page.length > limit && last ? encodeIdCursor(last.id) : null,
    found: total > 0,
  };
}
