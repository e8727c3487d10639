/**
 * Running one recall (DESIGN §5): BFS from the focus nodes through the agent's links, keyword
 * matching and ranking, then JSON items (the route renders plain text from them). Reads only:
 * no focus change, no strength change.
 */
import type { ForgottenItem, MemoryItem, RecallRequest } from "../api/recall";
import { MAX_RECALL_TRACES } from "../config/limits";
import { breadthFirst } from "../memory/bfs";
import { importanceOf } from "../memory/importance";
import { KeywordMatcher } from "../memory/keyword-match";
import { resolveRelation } from "../memory/relations";
import { candidateSegments, keywordHits, selectRecall } from "../memory/recall-result";
import type { AgentRuntime } from "./runtime";

export interface RecallOutcome {
  memories: MemoryItem[];
  traces: ForgottenItem[];
  startNodes: number;
  reachedNodes: number;
}

const EMPTY: RecallOutcome = { memories: [], traces: [], startNodes: 0, reachedNodes: 0 };

export async function runRecall(rt: AgentRuntime, request: RecallRequest): Promise<RecallOutcome> {
  const repos = rt.existingRepos();
  if (!repos) return EMPTY;
  const clock = rt.meta.clock();
  const depth = request.depth ?? rt.meta.params().default_search_depth;
  const relations = request.relations.map(resolveRelation);
  const keywords = [...request.keywords, ...(request.query ? await rt.model.queryKeywords(request.query) : [])];

  const start = new Map(rt.focus.ids().map((id) => [id, 1]));
  const bfs = await breadthFirst(start, depth, {
    expand: (frontier) => repos.links.incident(frontier, relations, clock),
    load: (ids) => repos.nodes.load(ids),
  });
  const matcher = new KeywordMatcher(keywords);
  const requireHit = matcher.size > 0;
  const hits = keywordHits(bfs, matcher);
  const candidates = candidateSegments(bfs, hits, requireHit);
  const outgoing = await repos.links.outgoingStrengths(candidates, clock);
  const importance = new Map([...outgoing].map(([id, strengths]) => [id, importanceOf(strengths)]));
  const selection = selectRecall(bfs, hits, candidates, requireHit, {
    limit: request.limit,
    maxTraces: MAX_RECALL_TRACES,
    importance,
  });

  return {
    startNodes: start.size,
    reachedNodes: bfs.reached.size,
    memories: selection.memories.map((m) => ({
      type: "memory",
      node_id: m.id,
      content: m.node.content,
      phrase: m.node.phrase,
      speaker: m.node.speaker,
      role: m.node.role,
      source_message_ids: m.node.sourceMessageIds,
      created_at: m.node.createdAt,
      message_time: m.node.messageTime,
      depth: m.depth,
      scores: { hits: m.hits, path_strength: m.pathStrength, importance: m.importance },
    })),
    traces: selection.traces.map((t) => ({
      type: "forgotten",
      source_node_id: t.sourceId,
      phrase: t.sourcePhrase,
      relation: t.relation,
      scores: { hits: t.hits, strength: t.strength },
    })),
  };
}
