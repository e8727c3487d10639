/**
 * Loads an agent's network from D1 into memory (src/memory/graph.ts) on first use after a wake,
 * with every link at its effective level for the current focus. Agents too large to hold
 * comfortably in a Durable Object's memory keep using D1 directly.
 */
import { MemoryGraph } from "../memory/graph";
import { PINNED_LEVEL } from "../memory/strength";
import { yieldToEventLoop } from "./event-loop";
import type { AgentRepos } from "./runtime";

/** How many nodes and links a network has (or at least has: a past-limits marker's counts). */
export interface NetworkSize {
  nodes: number;
  links: number;
}

/** Beyond these the graph is not cached (about 100 bytes a link, a few hundred a node). */
export const GRAPH_MAX_NODES = 60_000;
export const GRAPH_MAX_LINKS = 600_000;
export const GRAPH_LIMITS: NetworkSize = { nodes: GRAPH_MAX_NODES, links: GRAPH_MAX_LINKS };

/** Whether a network of `size` is past `limits` (either one). */
export function pastLimits(size: NetworkSize, limits: NetworkSize): boolean {
  return size.nodes > limits.nodes || size.links > limits.links;
}

/** A load: the graph, or the agent found past the limits with the counts seen then. */
export type GraphLoad = { graph: MemoryGraph; past?: undefined } | { graph?: undefined; past: NetworkSize };

const NODE_PAGE = 2_000;

export async function loadGraph(repos: AgentRepos, focus: readonly number[], limits: NetworkSize = GRAPH_LIMITS): Promise<GraphLoad> {
  // Both counts up front, in one statement: an agent past either limit loads no page.
  const size = await repos.links.networkSize();
  if (pastLimits(size, limits)) return { past: size };
  const graph = new MemoryGraph();
  graph.setInitialFocus(focus);
  for (let after = 0; ;) {
    const page = await repos.nodes.page(after, NODE_PAGE);
    for (const node of page) graph.addNode(node);
    const last = page.at(-1);
    if (!last || page.length < NODE_PAGE) break;
    after = last.id;
    await yieldToEventLoop();
  }
  for (const alias of await repos.nodes.aliases()) graph.addAlias(alias.key, alias.nodeId);
  for (let from: number | null = 0; from !== null;) {
    const page = await repos.links.page(from, focus);
    for (const link of page.links) graph.addLink({ ...link, level: link.pinned ? PINNED_LEVEL : link.level });
    // Grown past the limits since the count (writes between the pages).
    if (pastLimits({ nodes: graph.nodeCount, links: graph.linkCount }, limits))
      return { past: { nodes: graph.nodeCount, links: graph.linkCount } };
    from = page.next;
    await yieldToEventLoop();
  }
  return { graph };
}
