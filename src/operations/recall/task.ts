/**
 * recall (docs/design.md, "recall(keywords, relations, depth)"): the agent's side of src/memory/recall-engine.ts. It gives the
 * engine the network to read (the in-memory graph when it is loaded, else D1: both answer
 * alike), the agent's full-text statistics and the hybrid entry points, and turns the outcome into
 * items and the plain text the agent reads. A read: no focus change, no strength change.
 */
import type { z } from "zod";
import { breadthFirst, type BfsSource } from "../../memory/bfs";
import { formatRecall } from "../../memory/format";
import { recallMemories, recallSettingsOf, type RecallNetwork } from "../../memory/recall-engine";
import { queryTerms } from "../../language/tokens/index-terms";
import type { MemoryNode } from "../../vocabulary/records";
import { RELATION, resolveRelation } from "../../vocabulary/relations";
import { conflictMarks } from "../shared/conflict-marks";
import { labelLocale } from "../shared/label-locale";
import { networkReader } from "../../engine/network-reader";
import type { AgentModels, AgentNetwork, AgentStores } from "../../engine/runtime";
import { defineTask } from "../../engine/define-task";
import { RecallQuerySchema, RecallResultSchema, type RecallResult } from "./schemas";

import { searchLists } from "../shared/search-lists";
import { expired, passesScope, traceFollows } from "../../memory/memory-filter";
import { filterOf, namesAttributes } from "../../vocabulary/memory-filter";

/** What a recall uses of the agent's runtime. */
type RecallRuntime = AgentStores & AgentNetwork & Pick<AgentModels, "model" | "embedder" | "queryVectors">;

export const recallTask = defineTask({
  lane: "read",
  payload: RecallQuerySchema,
  result: RecallResultSchema,
  async run(rt: RecallRuntime, task) {
    return { status: "done", result: await runRecall(rt, task.payload) };
  },
});

const EMPTY = { memories: [], traces: [], start_nodes: 0, reached_nodes: 0, text: "" } satisfies RecallResult;

export async function runRecall(rt: RecallRuntime, request: z.output<typeof RecallQuerySchema>): Promise<RecallResult> {
  const repos = rt.existingRepos();
  if (!repos) return EMPTY;
  const clock = rt.meta.clock();
  const params = rt.meta.params();
  const relations = request.relations.map(resolveRelation);
  // No text-model call on the read path unless asked (docs/design.md, "Model economy"): the query's
  // own words through the analyzer are its keywords; `expand` adds the model's.
  const modelKeywords = request.query && request.expand ? await rt.model.queryKeywords(request.query) : [];
  // The query's own words and the model's keywords, through the one analyzer (src/language/tokens/index-terms.ts).
  const terms = queryTerms([...request.keywords, request.query ?? "", ...modelKeywords].join("\n"));
  // The labels' language reads nothing the recall reads: asked beside it, awaited at the end.
  const locale = labelLocale(rt, request);
  locale.catch(() => undefined);
  const reader = await networkReader(rt, repos);
  const graph = rt.loadedGraph();
  const now = rt.now();
  const filter = filterOf(request);
  const attributesNamed = namesAttributes(filter);
  // Read from D1: a node this recall has read already (an entry point, a node both walks reach) is
  // not read again.
  const known = new Map<number, MemoryNode>();
  const source: BfsSource<MemoryNode> = {
    expand: (frontier) => reader.expand(frontier, relations, clock),
    load: async (ids) => {
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > 0) for (const [id, node] of await reader.load(missing)) known.set(id, node);
      return new Map(ids.flatMap((id) => known.get(id) ?? []).map((node) => [node.id, node]));
    },
  };
  const textIndex = graph?.textIndex();
  const net: RecallNetwork = {
    traverse: async (start, depth) =>
      graph ? graph.traverse(start, depth, relations, clock, RELATION.about) : breadthFirst(start, depth, source),
    expand: (ids) => reader.expand(ids, relations, clock),
    outgoingStrengths: (ids) => reader.outgoingStrengths(ids, clock),
    statistics: async (ts) => (textIndex ? textIndex.statistics(ts) : repos.fts.statistics(ts)),
    entryPoints: async (query, limit, vectors) => {
      const lists = await searchLists(rt, repos, {
        query,
        mode: vectors ? "hybrid" : "keyword",
        limit,
        // Entry points are memories that pass the filter, and entities (hubs walked through).
        filters: { kinds: [...request.kinds, "entity"], filter, now, hubs: true },
      });
      if (!graph) for (const [id, node] of lists.nodes) known.set(id, node);
      return lists;
    },
    ...(textIndex ? { withTerm: (term: string) => textIndex.withToken(term) } : {}),
  };
  const outcome = await recallMemories(net, rt.focus.ids(), terms, [request.query ?? "", ...request.keywords].join(" ").trim(), {
    depth: request.depth ?? params.default_search_depth,
    limit: request.limit,
    start: request.start,
    kinds: new Set(request.kinds),
    ...recallSettingsOf(params, rt.embedder.name),
    returns: (node) => passesScope(node, { filter, now }),
    visible: (node) => !expired(node, now),
    traceFrom: (node) => traceFollows(node, filter, attributesNamed, now),
  });
  const conflicts = await conflictMarks(
    reader,
    outcome.memories.map((m) => m.id),
  );

  return {
    start_nodes: outcome.startNodes,
    reached_nodes: outcome.reachedNodes,
    text: formatRecall(
      outcome.memories.map((m) => ({ ...m.node, conflicted: (conflicts.get(m.id)?.length ?? 0) > 0 })),
      outcome.traces,
      await locale,
    ),
    memories: outcome.memories.map((m) => ({
      type: "memory",
      node_id: m.id,
      content: m.node.content,
      phrase: m.node.phrase,
      speaker: m.node.speaker,
      role: m.node.role,
      source_message_ids: m.node.sourceMessageIds,
      created_at: m.node.createdAt,
      message_time: m.node.messageTime,
      session_id: m.node.sessionId,
      metadata: m.node.metadata,
      depth: m.depth,
      conflicts_with: conflicts.get(m.id) ?? [],
      scores: {
        hits: m.hits,
        keyword_score: m.textScore,
        path_strength: m.pathStrength,
        importance: m.importance,
        similarity: m.similarity,
      },
    })),
    traces: outcome.traces.map((t) => ({
      type: "forgotten",
      source_node_id: t.sourceId,
      phrase: t.sourcePhrase,
      relation: t.relation,
      scores: { hits: t.hits, strength: t.strength },
    })),
  };
}
