/**
 * Loads an agent's network from D1 into memory (src/memory/graph.ts) on first use after a wake,
 * with every link at its effective level for the current focus. Agents too large to hold
 * comfortably in a Durable Object's memory keep using D1 directly.
 */
import { MemoryGraph } from "../memory/graph";
import { PINNED_LEVEL } from "../memory/strength";
import type { LinkKey } from "../vocabulary/records";
import { yieldToEventLoop } from "./event-loop";
import type { AgentRepos } from "./runtime";

/** Beyond these the graph is not cached (about 100 bytes a link, a few hundred a node). */
export const GRAPH_MAX_NODES = 60_000;
export const GRAPH_MAX_LINKS = 600_000;

const NODE_PAGE = 2_000;
const LINK_PAGE = 10_000;

export async function loadGraph(repos: AgentRepos, focus: readonly number[]): Promise<MemoryGraph | undefined> {
  if ((await repos.nodes.count()) > GRAPH_MAX_NODES) return undefined;
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
  for (let after: LinkKey | null = null; ;) {
    const page = await repos.links.page(after, LINK_PAGE, focus);
    for (const link of page) graph.addLink({ ...link, level: link.pinned ? PINNED_LEVEL : link.level });
    if (graph.linkCount > GRAPH_MAX_LINKS) return undefined;
    const last = page.at(-1);
    if (!last || page.length < LINK_PAGE) break;
    after = last;
    await yieldToEventLoop();
  }
  return graph;
}
