/**
 * Search (docs/design.md, "recall(keywords, relations, depth)"): BM25 full-text, vector cosine, or both fused by a convex combination
 * of normalised scores at the embedder's weight (src/memory/fusion.ts, src/config/retrieval.ts).
 * Vector hits may name nodes deleted since they were indexed (and Vectorize answers lag its
 * writes), so every hit is looked up before it is returned. Used by searchMemories, as the
 * entry points of hybrid recall, and to find the memory a description names (linkMemories).
 */
import { vectorFusionWeight } from "../../config/retrieval";
import { fuseScores } from "../../memory/fusion";
import type { MemoryGraph } from "../../memory/graph";
import { queryTokens, scoreCandidates } from "../../search/bm25-candidates";
import { ftsMatchExpression, ftsQueryTerms } from "../../search/fts-text";
import type { TextFilters } from "../../storage/fts-repo";
import type { MemoryNode } from "../../vocabulary/records";
import type { SearchMode } from "../../vocabulary/search-modes";
import { networkReader } from "../../engine/network-reader";
import type { AgentModels, AgentNetwork, AgentRepos, AgentStores } from "../../engine/runtime";

/** What a search uses of the agent's runtime. */
export type SearchRuntime = Pick<AgentStores, "focus"> & AgentNetwork & Pick<AgentModels, "embedder" | "queryVectors">;

export interface RankedHit {
  node: MemoryNode;
  /** The ordering score of the mode: BM25, cosine, or the fused score (src/memory/fusion.ts). */
  score: number;
  keyword: number | null;
  vector: number | null;
}

export interface SearchSpec {
  query: string;
  mode: SearchMode;
  limit: number;
  filters: TextFilters;
}

/** Candidates drawn from each list before fusion and filtering. */
function poolSize(limit: number): number {
  return Math.max(30, limit * 3);
}

/** Keyword and vector scores of the nodes that pass the filters, each list best first. */
export interface SearchLists {
  keyword: Map<number, number>;
  vector: Map<number, number>;
  nodes: Map<number, MemoryNode>;
}

export async function searchLists(rt: SearchRuntime, repos: AgentRepos, spec: SearchSpec): Promise<SearchLists> {
  const pool = poolSize(spec.limit);
  const graph = await rt.graph();
  // Both lists at once: the full-text query waits on D1 while the vector query runs (or waits on
  // Vectorize).
  const [keyword, vector] = await Promise.all([
    spec.mode === "vector" ? new Map<number, number>() : graph ? keywordHitsInMemory(graph, spec, pool) : keywordHits(repos, spec, pool),
    spec.mode === "keyword" ? new Map<number, number>() : vectorHits(rt, spec, pool),
  ]);
  const nodes = await (await networkReader(rt, repos)).load([...new Set([...keyword.keys(), ...vector.keys()])]);
  const allowed = ([id]: [number, number]) => {
    const node = nodes.get(id);
    return node !== undefined && passes(node, spec.filters);
  };
  return { keyword: new Map([...keyword].filter(allowed)), vector: new Map([...vector].filter(allowed)), nodes };
}

export async function searchNodes(rt: SearchRuntime, repos: AgentRepos, spec: SearchSpec): Promise<RankedHit[]> {
  const { keyword, vector, nodes } = await searchLists(rt, repos, spec);
  const weight = vectorFusionWeight(rt.embedder.name);
  const ranked =
    spec.mode === "keyword"
      ? [...keyword].map(([id, score]) => ({ id, score }))
      : spec.mode === "vector"
        ? [...vector].map(([id, score]) => ({ id, score }))
        : fuseScores([
            { scores: keyword, weight: 1 - weight, normalise: "max" },
            { scores: vector, weight, normalise: "min-max" },
          ]);
  return ranked.slice(0, spec.limit).flatMap(({ id, score }) => {
    const node = nodes.get(id);
    return node ? [{ node, score, keyword: keyword.get(id) ?? null, vector: vector.get(id) ?? null }] : [];
  });
}

/** As keywordHits, from the agent's in-memory graph: BM25 with the agent's own statistics (src/search/bm25-index.ts). */
function keywordHitsInMemory(graph: MemoryGraph, spec: SearchSpec, pool: number): Map<number, number> {
  const terms = ftsQueryTerms(spec.query);
  const accept = (id: number) => {
    const node = graph.node(id);
    return node !== undefined && passes(node, spec.filters);
  };
  return new Map(
    graph
      .textIndex()
      .search(terms, pool, accept)
      .map((h) => [h.id, h.score]),
  );
}

/**
 * Candidates the D1 path scores per query: the newest matching nodes (an agent this large has
 * many; the in-memory path scores every match).
 */
const FTS_CANDIDATES = 5_000;

/**
 * BM25 hits with the agent's own statistics: FTS5 finds the candidates, the scores are the same as
 * the in-memory index's. Chinese needs no substring search: it is indexed by characters and
 * character pairs (src/language/tokens/index-terms.ts), so a word matches however it was segmented.
 */
async function keywordHits(repos: AgentRepos, spec: SearchSpec, pool: number): Promise<Map<number, number>> {
  const terms = ftsQueryTerms(spec.query);
  const match = ftsMatchExpression(terms);
  const hits = new Map<number, number>();
  if (match) {
    // FTS5 finds the candidates; the scores use the agent's own statistics only (isolation).
    const [candidates, stats] = await Promise.all([
      repos.fts.candidates(match, spec.filters, FTS_CANDIDATES),
      repos.fts.statistics(queryTokens(terms)),
    ]);
    for (const hit of scoreCandidates(terms, candidates, stats, pool)) hits.set(hit.id, hit.score);
  }
  return hits;
}

async function vectorHits(rt: SearchRuntime, spec: SearchSpec, pool: number): Promise<Map<number, number>> {
  const index = rt.vectors();
  if (!index) return new Map();
  const vector = await rt.queryVectors.vector(spec.query);
  if (!vector) return new Map();
  // Over-fetch when filtering by time: the index knows kinds, not times.
  const topK = spec.filters.from !== undefined || spec.filters.to !== undefined ? pool * 4 : pool;
  const hits = await index.query({ vector, topK, kinds: spec.filters.kinds });
  return new Map(hits.map((h) => [h.nodeId, h.score]));
}

/** A superseded memory is history (docs/design.md, "Memory operations"): search never returns it. */
function passes(node: MemoryNode, filters: TextFilters): boolean {
  const time = node.messageTime ?? node.createdAt;
  return (
    node.supersededBy === null &&
    filters.kinds.includes(node.kind) &&
    (filters.from === undefined || time >= filters.from) &&
    (filters.to === undefined || time <= filters.to)
  );
}
