/**
 * Recall on a simulated agent: the engine the Durable Object runs (src/memory/recall-engine.ts),
 * over the agent's in-memory graph and local vectors, exactly as the object's in-memory path reads
 * them (src/operations/recall.ts, search.ts).
 */
import type { AgentParams } from "../../src/config/params";
import { recallMemories, recallSettingsOf, type RecallNetwork } from "../../src/memory/recall-engine";
import { strengthAt } from "../../src/memory/strength";
import { queryTerms } from "../../src/text/index-terms";
import { localQueryKeywords } from "../../src/models/local/local-query";
import type { MemoryNode } from "../../src/vocabulary/records";
import { RELATION } from "../../src/vocabulary/relations";
import type { SimAgent } from "./sim-agent";

const KINDS = ["segment", "memory", "entity"] as const;

/** `vectorWeight` stands in for the embedder's fusion weight (src/config/retrieval.ts) while it is tuned. */
export async function simRecall(
  agent: SimAgent,
  query: string,
  limit: number,
  params: AgentParams = agent.params,
  vectorWeight?: number,
): Promise<MemoryNode[]> {
  const { graph, clock } = agent;
  const index = graph.textIndex();
  const accept = (id: number) => {
    const node = graph.node(id);
    return node !== undefined && node.supersededBy === null && (KINDS as readonly string[]).includes(node.kind);
  };
  const net: RecallNetwork = {
    traverse: async (start, depth) => graph.traverse(start, depth, [], clock, RELATION.about),
    expand: async (ids) => graph.incident(ids, [], clock),
    outgoingStrengths: async (ids) => new Map(ids.map((id) => [id, graph.outgoingOf(id).map((l) => strengthAt(l.level, clock))])),
    statistics: async (terms) => index.statistics(terms),
    entryPoints: async (q, seeds, vectors) => {
      const pool = Math.max(30, seeds * 3);
      const keyword = new Map(index.search(queryTerms(q), pool, accept).map((h) => [h.id, h.score]));
      const vector = vectors ? new Map([...agent.vectorSearch(q, pool, KINDS)].filter(([id]) => accept(id))) : new Map<number, number>();
      return { keyword, vector };
    },
    withTerm: (term) => index.withToken(term),
  };
  const terms = queryTerms([query, ...localQueryKeywords(query)].join("\n"));
  const base = recallSettingsOf(params, agent.embedder.name);
  const settings =
    vectorWeight === undefined || !params.recall_vectors ? base : { ...base, ranking: { ...base.ranking, vector: vectorWeight } };
  const outcome = await recallMemories(
    net,
    agent.focus.map((f) => f.nodeId),
    terms,
    query,
    {
      depth: params.default_search_depth,
      limit,
      start: "hybrid",
      ...settings,
    },
  );
  return outcome.memories.map((m) => m.node);
}
