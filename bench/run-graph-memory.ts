/**
 * In-process probe of what a held graph costs in memory (docs/design.md, Decision 3): grows an agent
 * from the speed stream to --nodes (the graph's limits lifted, so it stays held), writes its copy,
 * drops the graph, then measures the heap after forced collections: the graph woken from the copy
 * (packed links), after a recall, and after its links are made objects (what a first write does).
 *
 *   npm run bench:graph-memory -- [--nodes 10000]
 *
 * Node's V8 stands in for workerd's; the figures are the graph's share of a heap, not an isolate's.
 */
import { parseArgs } from "node:util";
import { DEFAULT_PARAMS } from "../src/config/params";
import { OfflineAgent } from "./offline/offline-agent";
import { chatStream } from "./speed/streams";

const { values } = parseArgs({ options: { nodes: { type: "string", default: "10000" } } });
const nodes = Number(values.nodes);
if (!(Number.isInteger(nodes) && nodes > 0)) throw new Error("--nodes must be a positive whole number");
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node's --expose-gc (npm run bench:graph-memory does)");
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const agent = await OfflineAgent.create({ ...DEFAULT_PARAMS, capacity: 1_000_000 });
agent.state.network.pastLimits.limits = { nodes: Number.MAX_SAFE_INTEGER, links: Number.MAX_SAFE_INTEGER };
for (let call = 0; ((await agent.state.graph())?.nodeCount ?? 0) < nodes; call++) {
  await agent.remember(chatStream("en", 400, 1000 + call, `p-${call}`));
}
agent.state.network.writeSnapshot();
// A recall first, so that what every read builds once (the language tables) is in the baseline.
await agent.recall("alice bob", 20);
agent.state.dropGraph();
const base = heap();
const graph = await agent.state.graph();
if (!graph) throw new Error("the graph was not held");
const woken = heap() - base;
await agent.recall("alice bob", 20);
const recalled = heap() - base;
// What a first write does to the links (src/memory/graph-links.ts): every link made an object.
(graph as unknown as { links: { unpack(): void } }).links.unpack();
const written = heap() - base;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
console.log(`${graph.nodeCount} nodes, ${graph.linkCount} links held`);
console.log(`woken from the copy (packed links): ${mb(woken)} (${(woken / graph.linkCount).toFixed(0)} B a link, all in)`);
console.log(`after a recall: ${mb(recalled)}`);
console.log(`links as objects (after a first write): ${mb(written)} (+${((written - recalled) / graph.linkCount).toFixed(0)} B a link)`);
