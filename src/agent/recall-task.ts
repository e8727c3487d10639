/**
 * Running one recall (DESIGN §5): BFS from the focus nodes through the agent's links, keyword
 * matching and ranking, then JSON items (the route renders plain text from them). When the focus
 * reaches too little, full-text and vector hits seed a second BFS and both are fused. Reads only:
 * no focus change, no strength change.
 */
import type { ForgottenItem, MemoryItem, RecallRequest } from "../api/recall";
import { MAX_RECALL_TRACES } from "../config/limits";
import { breadthFirst, mergeBfs, type BfsSource } from "../memory/bfs";
import { importanceOf } from "../memory/importance";
import { KeywordMatcher } from "../memory/keyword-match";
import { resolveRelation } from "../memory/relations";
import type { MemoryNode } from "../memory/node";
import { candidateSegments, keywordHits, selectRecall } from "../memory/recall-result";
import { networkReader } from "./network-reader";
import type { AgentRuntime } from "./runtime";
import { searchNodes } from "./search-task";

export interface RecallOutcome {
  memories: MemoryItem[];
  traces: ForgottenItem[];
  startNodes: number;
  reachedNodes: number;
}

const EMPTY: RecallOutcome = { memories: [], traces: [], startNodes: 0, reachedNodes: 0 };

/**
 * Search hits that seed the BFS when the focus reaches too little (DESIGN §5, "beyond the seed"):
 * how many, how far out from them, and their start strength. Seeds start below a focus node's 1,
 * so memories the focus reaches win ties: a hot agent keeps preferring what it is thinking about.
 */
export const SEED_HITS = 40;
export const SEED_DEPTH = 1;
export const SEED_STRENGTH = 0.5;

export async function runRecall(rt: AgentRuntime, request: RecallRequest): Promise<RecallOutcome> {
  const repos = rt.existingRepos();
  if (!repos) return EMPTY;
  const clock = rt.meta.clock();
  const depth = request.depth ?? rt.meta.params().default_search_depth;
  const relations = request.relations.map(resolveRelation);
  const keywords = [...request.keywords, ...(request.query ? await rt.model.queryKeywords(request.query) : [])];
  const reader = await networkReader(rt, repos);
  const source: BfsSource<MemoryNode> = {
    expand: (frontier) => reader.expand(frontier, relations, clock),
    load: (ids) => reader.load(ids),
  };
  const matcher = new KeywordMatcher(keywords);
  const requireHit = matcher.size > 0;

  const focus = new Map(rt.focus.ids().map((id) => [id, 1]));
  let bfs = await breadthFirst(focus, depth, source);
  let hits = keywordHits(bfs, matcher);
  let candidates = candidateSegments(bfs, hits, requireHit);
  const similarity = new Map<number, number>();
  let startNodes = focus.size;

  if (request.start === "hybrid" && requireHit && candidates.length < request.limit) {
    // The focus reaches too little: enter the network at full-text and vector hits as well.
    const seeds = await searchNodes(rt, repos, {
      query: [request.query ?? "", ...request.keywords].join(" ").trim(),
      mode: "hybrid",
      limit: SEED_HITS,
      filters: { kinds: ["segment", "entity"] },
    });
    const best = seeds[0]?.score ?? 1;
    for (const seed of seeds) similarity.set(seed.node.id, seed.score / best);
    const start = new Map(seeds.filter((h) => !bfs.reached.has(h.node.id)).map((h) => [h.node.id, SEED_STRENGTH * (h.score / best)]));
    if (start.size > 0) {
      bfs = mergeBfs(bfs, await breadthFirst(start, Math.min(depth, SEED_DEPTH), source));
      hits = keywordHits(bfs, matcher);
      candidates = candidateSegments(bfs, hits, requireHit);
      startNodes += start.size;
    }
  }

  const outgoing = await reader.outgoingStrengths(candidates, clock);
  const importance = new Map([...outgoing].map(([id, strengths]) => [id, importanceOf(strengths)]));
  const selection = selectRecall(bfs, hits, candidates, requireHit, {
    limit: request.limit,
    maxTraces: MAX_RECALL_TRACES,
    importance,
    similarity,
  });

  return {
    startNodes,
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
      scores: { hits: m.hits, keyword_score: m.keywordScore, path_strength: m.pathStrength, importance: m.importance, similarity: m.similarity },
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
