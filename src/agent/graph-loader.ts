/**
 * Loads an agent's network from D1 into memory (src/memory/graph.ts) on first use after a wake.
 * Agents too large to hold comfortably in a Durable Object's memory keep using D1 directly.
 */
import { MemoryGraph } from "../memory/graph";
import { yieldToEventLoop } from "./event-loop";
import type { AgentRepos } from "./runtime";

/** Beyond these the graph is not cached (about 100 bytes a link, a few hundred a node). */
export const GRAPH_MAX_NODES = 60_000;
export const GRAPH_MAX_LINKS = 600_000;

const NODE_PAGE = 2_000;
const LINK_PAGE = 10_000;

export async function loadGraph(repos: AgentRepos): Promise<MemoryGraph | undefined> {
  if ((await repos.nodes.count()) > GRAPH_MAX_NODES) return undefined;
  const graph = new MemoryGraph();
  for (let after = 0; ;) {
    const page = await repos.nodes.page(after, NODE_PAGE);
    for (const node of page) graph.addNode(node);
    const last = page.at(-1);
    if (!last || page.length < NODE_PAGE) break;
    after = last.id;
    await yieldToEventLoop();
  }
  for (let after: { source: number; target: number; relation: string } | null = null; ;) {
    const page = await repos.links.page(after, LINK_PAGE);
    for (const link of page) graph.addLink(link);
    if (graph.linkCount > GRAPH_MAX_LINKS) return undefined;
    const last = page.at(-1);
    if (!last || page.length < LINK_PAGE) break;
    after = last;
    await yieldToEventLoop();
  }
  return graph;
}
