/**
 * Reading an agent's network, from its in-memory graph when it is loaded (the hot path: no
 * database round trip) or from D1 otherwise (a graph too large to cache). Both give the same
 * answers; test/graph-cache.test.ts checks the graph against D1 after every kind of write.
 */
import type { Edge } from "../memory/bfs";
import type { MemoryGraph } from "../memory/graph";
import { importanceOf, PROTECTED_MARGIN } from "../memory/importance";
import { isPinned, PINNED_LEVEL, strengthAt } from "../memory/strength";
import type { NodeKind } from "../vocabulary/node-kinds";
import type { LinkKey, LinkState, MemoryNode, NodeFilter } from "../vocabulary/records";
import type { AgentNetwork, AgentRepos, AgentStores } from "./runtime";

export interface NetworkReader {
  load(ids: readonly number[]): Promise<Map<number, MemoryNode>>;
  /** Links with an end in `frontier` (either direction), filtered by relation. */
  expand(frontier: readonly number[], relations: readonly string[], clock: number): Promise<Edge[]>;
  /**
   * Outgoing strengths per node, dangling links included (the inputs of importance); links whose
   * level is below `minLevel` are left out (the decay step of the running pass breaks them).
   */
  outgoingStrengths(ids: readonly number[], clock: number, minLevel?: number): Promise<Map<number, number[]>>;
  /**
   * Importance per node for a scan: exact (importanceOf) below 1 + PROTECTED_MARGIN; above it, a
   * value that is only known to be at least 1 (a protected node needs nothing more: the graph path
   * stops summing there).
   */
  scanImportance(ids: readonly number[], clock: number, minLevel: number): Promise<Map<number, number>>;
  /** A node's links in and out, as they stand. */
  linksOf(id: number): Promise<LinkState[]>;
  /** The outgoing links of `ids` as they stand (dangling ones included), optionally of one relation. */
  outgoingLinks(ids: readonly number[], relation?: string): Promise<LinkState[]>;
  /** The links whose level is below `belowLevel`: what the decay step breaks. */
  breaking(belowLevel: number): Promise<LinkKey[]>;
  findEntities(keys: readonly string[]): Promise<Map<string, { nodeId: number; name: string }>>;
  count(): Promise<number>;
  /** The nodes a filter selects (`{ pinned: true }`), newest first, at most `limit`. */
  find(filter: NodeFilter, limit: number): Promise<MemoryNode[]>;
  /** Nodes of one kind, newest first, at most `limit`. */
  ofKind(kind: NodeKind, limit: number): Promise<MemoryNode[]>;
  /** Outgoing links per node with their current strengths (dangling ones included). */
  outgoing(ids: readonly number[], clock: number): Promise<Map<number, { target: number; relation: string; strength: number }[]>>;
}

export async function networkReader(
  rt: Pick<AgentNetwork, "graph"> & Pick<AgentStores, "focus">,
  repos: AgentRepos,
): Promise<NetworkReader> {
  const graph = await rt.graph();
  return graph ? graphReader(graph) : d1Reader(repos, rt.focus.ids());
}

function graphReader(graph: MemoryGraph): NetworkReader {
  return {
    load: async (ids) => graph.load(ids),
    expand: async (frontier, relations, clock) => graph.incident(frontier, relations, clock),
    outgoingStrengths: async (ids, clock, minLevel = -Infinity) =>
      new Map(
        ids.map((id) => [
          id,
          graph
            .outgoingOf(id)
            .filter((l) => l.level >= minLevel)
            .map((l) => strengthAt(l.level, clock)),
        ]),
      ),
    scanImportance: async (ids, clock, minLevel) => {
      const out = new Map<number, number>();
      for (const id of ids) {
        const links = graph.outgoingOf(id);
        let quick = 0;
        for (const l of links) {
          if (l.level >= minLevel) quick += strengthAt(l.level, clock);
          // Protected: the rest of the sum cannot change that (strengths are positive).
          if (quick >= 1 + PROTECTED_MARGIN) break;
        }
        if (quick >= 1 + PROTECTED_MARGIN) out.set(id, quick);
        else out.set(id, importanceOf(links.filter((l) => l.level >= minLevel).map((l) => strengthAt(l.level, clock))));
      }
      return out;
    },
    linksOf: async (id) => graph.linksOf(id).map((l) => ({ ...l, pinned: isPinned(l.level) })),
    outgoingLinks: async (ids, relation) =>
      ids.flatMap((id) =>
        graph
          .outgoingOf(id)
          .filter((l) => relation === undefined || l.relation === relation)
          .map((l) => ({
            source: l.source,
            target: l.target,
            relation: l.relation,
            level: l.level,
            createdAt: l.createdAt,
            pinned: isPinned(l.level),
          })),
      ),
    breaking: async (belowLevel) => graph.linksBelow(belowLevel),
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
    find: async (filter, limit) => graph.find(filter, limit),
    ofKind: async (kind, limit) => graph.find({ kind }, limit),
    outgoing: async (ids, clock) =>
      new Map(
        ids.map((id) => [
          id,
          graph.outgoingOf(id).map((l) => ({ target: l.target, relation: l.relation, strength: strengthAt(l.level, clock) })),
        ]),
      ),
  };
}

/** Effective level of a link read from D1, as the graph holds it (pinned ones at PINNED_LEVEL). */
function levelOf(link: LinkState): number {
  return link.pinned ? PINNED_LEVEL : link.level;
}

function d1Reader(repos: AgentRepos, focus: readonly number[]): NetworkReader {
  return {
    load: (ids) => repos.nodes.load(ids),
    expand: async (frontier, relations, clock) =>
      (await repos.links.incident(frontier, relations, focus)).map((l) => ({
        source: l.source,
        target: l.target,
        relation: l.relation,
        strength: strengthAt(levelOf(l), clock),
      })),
    outgoingStrengths: async (ids, clock, minLevel = -Infinity) => {
      const out = new Map<number, number[]>(ids.map((id) => [id, []]));
      for (const link of await repos.links.outgoing(ids, focus))
        if (levelOf(link) >= minLevel) out.get(link.source)?.push(strengthAt(levelOf(link), clock));
      return out;
    },
    scanImportance: async (ids, clock, minLevel) => {
      const strengths = new Map<number, number[]>(ids.map((id) => [id, []]));
      for (const link of await repos.links.outgoing(ids, focus))
        if (levelOf(link) >= minLevel) strengths.get(link.source)?.push(strengthAt(levelOf(link), clock));
      return new Map([...strengths].map(([id, list]) => [id, importanceOf(list)]));
    },
    linksOf: (id) => repos.links.ofNode(id, focus),
    outgoingLinks: async (ids, relation) =>
      (await repos.links.outgoing(ids, focus))
        .filter((l) => relation === undefined || l.relation === relation)
        .map((l) => ({ ...l, level: levelOf(l) })),
    breaking: (belowLevel) => repos.links.breaking(belowLevel, focus),
    findEntities: (keys) => repos.nodes.findEntities(keys),
    count: () => repos.nodes.count(),
    find: (filter, limit) => repos.nodes.find(filter, limit),
    ofKind: (kind, limit) => repos.nodes.find({ kind }, limit),
    outgoing: async (ids, clock) => {
      const out = new Map<number, { target: number; relation: string; strength: number }[]>(ids.map((id) => [id, []]));
      for (const link of await repos.links.outgoing(ids, focus))
        out.get(link.source)?.push({ target: link.target, relation: link.relation, strength: strengthAt(levelOf(link), clock) });
      return out;
    },
  };
}
