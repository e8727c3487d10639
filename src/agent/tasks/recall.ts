/**
 * recall (docs/design.md §5): BFS from the focus nodes through the agent's links, keyword matching and
 * ranking, as items and as the plain text the agent reads. Full-text and vector hits for the
 * keywords seed a second BFS, fused with the focus-reached set, so memories beyond the focus's
 * reach are found too. A read: no focus change, no strength change.
 */
import type { z } from "zod";
import { MAX_RECALL_TRACES } from "../../config/limits";
import { breadthFirst, mergeBfs, type BfsSource } from "../../memory/bfs";
import { formatRecall } from "../../memory/format";
import { importanceOf } from "../../memory/importance";
import { KeywordMatcher } from "../../memory/keyword-match";
import { importanceNeeded } from "../../memory/ranking";
import { candidateSegments, keywordHits, rankedCandidates, selectRecall } from "../../memory/recall-result";
import type { MemoryNode } from "../../vocabulary/records";
import { RELATION, resolveRelation } from "../../vocabulary/relations";
import { conflictMarks } from "../conflict-marks";
import { networkReader } from "../network-reader";
import type { AgentRuntime } from "../runtime";
import { defineTask } from "./define-task";
import { RecallQuerySchema, RecallResultSchema, type RecallResult } from "./recall-schemas";

export {
  RecallQuerySchema,
  RecallResultSchema,
  RecalledMemorySchema,
  RecalledTraceSchema,
  type RecallQuery,
  type RecallResult,
} from "./recall-schemas";
import { searchNodes } from "./search";

export const recallTask = defineTask({
  lane: "read",
  payload: RecallQuerySchema,
  result: RecallResultSchema,
  async run(rt, task) {
    return { status: "done", result: await runRecall(rt, task.payload) };
  },
});

const EMPTY = { memories: [], traces: [], start_nodes: 0, reached_nodes: 0, text: "" } satisfies RecallResult;

/**
 * Search hits that seed the BFS beside the focus (docs/design.md §5, "beyond the seed"): how many, how far
 * out from them, and their start strength. Seeds start below a focus node's 1, so memories the
 * focus reaches win ties: a hot agent keeps preferring what it is thinking about.
 */
export const SEED_HITS = 40;
export const SEED_DEPTH = 1;
export const SEED_STRENGTH = 0.5;

export async function runRecall(rt: AgentRuntime, request: z.output<typeof RecallQuerySchema>): Promise<RecallResult> {
  const repos = rt.existingRepos();
  if (!repos) return EMPTY;
  const clock = rt.meta.clock();
  const depth = request.depth ?? rt.meta.params().default_search_depth;
  const relations = request.relations.map(resolveRelation);
  const keywords = [...request.keywords, ...(request.query ? await rt.model.queryKeywords(request.query) : [])];
  const reader = await networkReader(rt, repos);
  const graph = rt.loadedGraph();
  const source: BfsSource<MemoryNode> = {
    expand: (frontier) => reader.expand(frontier, relations, clock),
    load: (ids) => reader.load(ids),
  };
  const search = async (from: ReadonlyMap<number, number>, layers: number) =>
    graph ? graph.traverse(from, layers, relations, clock, RELATION.about) : breadthFirst(from, layers, source);
  const matcher = new KeywordMatcher(keywords);
  const requireHit = matcher.size > 0;

  const focus = new Map(rt.focus.ids().map((id) => [id, 1]));
  let bfs = await search(focus, depth);
  const similarity = new Map<number, number>();
  let startNodes = focus.size;

  if (request.start === "hybrid" && requireHit) {
    // The query's words may lie beyond the focus's reach: enter the network at full-text and vector
    // hits too, fused with the focus-reached set (docs/design.md §5).
    const seeds = await searchNodes(rt, repos, {
      query: [request.query ?? "", ...request.keywords].join(" ").trim(),
      mode: "hybrid",
      limit: SEED_HITS,
      filters: { kinds: [...request.kinds, "entity"] },
    });
    const best = seeds[0]?.score ?? 1;
    for (const seed of seeds) similarity.set(seed.node.id, seed.score / best);
    const start = new Map(seeds.filter((h) => !bfs.reached.has(h.node.id)).map((h) => [h.node.id, SEED_STRENGTH * (h.score / best)]));
    if (start.size > 0) {
      bfs = mergeBfs(bfs, await search(start, Math.min(depth, SEED_DEPTH)));
      startNodes += start.size;
    }
  }
  const hits = keywordHits(bfs, matcher, graph?.termIndex());
  const candidates = candidateSegments(bfs, hits, requireHit, new Set(request.kinds));

  const items = rankedCandidates(bfs, hits, candidates, similarity);
  const outgoing = await reader.outgoingStrengths(importanceNeeded(items, request.limit), clock);
  for (const item of items) item.importance = importanceOf(outgoing.get(item.id) ?? []);
  const selection = selectRecall(bfs, hits, items, requireHit, { limit: request.limit, maxTraces: MAX_RECALL_TRACES });
  const conflicts = await conflictMarks(
    reader,
    selection.memories.map((m) => m.id),
  );

  return {
    start_nodes: startNodes,
    reached_nodes: bfs.reached.size,
    text: formatRecall(
      selection.memories.map((m) => ({ ...m.node, conflicted: (conflicts.get(m.id)?.length ?? 0) > 0 })),
      selection.traces,
      request.locale,
    ),
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
      conflicts_with: conflicts.get(m.id) ?? [],
      scores: {
        hits: m.hits,
        keyword_score: m.keywordScore,
        path_strength: m.pathStrength,
        importance: m.importance,
        similarity: m.similarity,
      },
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
