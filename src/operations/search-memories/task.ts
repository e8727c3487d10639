/**
 * searchMemories (docs/design.md, "recall(keywords, relations, depth)"): every memory of the agent
 * ranked by words, meaning or both (shared/search-lists.ts), with the memories each hit contradicts.
 */
import { conflictMarks } from "../shared/conflict-marks";
import { searchNodes, type SearchRuntime } from "../shared/search-lists";
import { networkReader } from "../../engine/network-reader";
import { defineTask } from "../../engine/define-task";
import { filterOf } from "../../vocabulary/memory-filter";
import { SearchQuerySchema, SearchResultSchema, type SearchQuery, type SearchResult } from "./schemas";

export const searchMemoriesTask = defineTask({
  lane: "read",
  payload: SearchQuerySchema,
  result: SearchResultSchema,
  async run(rt: SearchRuntime, task) {
    return { status: "done", result: await runSearch(rt, task.payload) };
  },
});

export async function runSearch(rt: SearchRuntime, request: SearchQuery): Promise<SearchResult> {
  const repos = rt.existingRepos();
  if (!repos) return { mode: request.mode, items: [] };
  const hits = await searchNodes(rt, repos, {
    query: request.query,
    mode: request.mode,
    limit: request.top_k,
    filters: { kinds: request.kinds, filter: filterOf(request), now: rt.now() },
  });
  const conflicts = await conflictMarks(
    await networkReader(rt, repos),
    hits.map((h) => h.node.id),
  );
  return {
    mode: request.mode,
    items: hits.map(({ node, score, keyword, vector }) => ({
      node_id: node.id,
      kind: node.kind,
      content: node.content,
      phrase: node.phrase,
      speaker: node.speaker,
      role: node.role,
      source_message_ids: node.sourceMessageIds,
      time: node.messageTime ?? node.createdAt,
      created_at: node.createdAt,
      message_time: node.messageTime,
      session_id: node.sessionId,
      metadata: node.metadata,
      expires_at: node.expiresAt,
      conflicts_with: conflicts.get(node.id) ?? [],
      score,
      scores: { keyword, vector },
    })),
  };
}
