/**
 * Reading an agent's network, from its in-memory graph when it is loaded (the hot path: no
 * database round trip) or from D1 otherwise (a graph too large to cache). Both give the same
 * answers; test/graph-cache.test.ts checks the graph against D1 after every kind of write.
 */
import type { Edge } from "../memory/bfs";
import type { MemoryGraph } from "../memory/graph";
import type { MemoryNode } from "../memory/node";
import { strengthAt } from "../memory/strength";
import type { AgentRepos, AgentRuntime } from "./runtime";

export interface NetworkReader {
  load(ids: readonly number[]): Promise<Map<number, MemoryNode>>;
  /** Links with an end in `frontier` (either direction), filtered by relation. */
  expand(frontier: readonly number[], relations: readonly string[], clock: number): Promise<Edge[]>;
  /** Outgoing strengths per node, dangling links included (the inputs of importance). */
  outgoingStrengths(ids: readonly number[], clock: number): Promise<Map<number, number[]>>;
  findEntities(keys: readonly string[]): Promise<Map<string, { nodeId: number; name: string }>>;
  count(): Promise<number>;
}

export async function networkReader(rt: AgentRuntime, repos: AgentRepos): Promise<NetworkReader> {
  const graph = await rt.graph();
  return graph ? graphReader(graph) : d1Reader(repos);
}

function graphReader(graph: MemoryGraph): NetworkReader {
  return {
    load: async (ids) => graph.load(ids),
    expand: async (frontier, relations, clock) => graph.incident(frontier, relations, clock),
    outgoingStrengths: async (ids, clock) => new Map(ids.map((id) => [id, graph.outgoingOf(id).map((l) => strengthAt(l.level, clock))])),
    findEntities: async (keys) => {
      const found = new Map<string, { nodeId: number; name: string }>();
      for (const key of keys) {
        const id = graph.entityId(key);
        const node = id === undefined ? undefined : graph.node(id);
        if (node) found.set(key, { nodeId: node.id, name: node.content });
      }
      return found;
    },
    count: async () => graph.nodeCount,
  };
}

function d1Reader(repos: AgentRepos): NetworkReader {
  return {
    load: (ids) => repos.nodes.load(ids),
    expand: (frontier, relations, clock) => repos.links.incident(frontier, relations, clock),
    outgoingStrengths: (ids, clock) => repos.links.outgoingStrengths(ids, clock),
    findEntities: (keys) => repos.nodes.findEntities(keys),
    count: () => repos.nodes.count(),
  };
}
