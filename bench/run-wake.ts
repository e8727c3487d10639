/**
 * In-process wake probe: what a cold call of an agent waits for in its object, without workerd or
 * HTTP (bench/offline/offline-agent.ts: the object's runtime over in-memory SQLite). Grows an agent
 * from the speed stream to --nodes, writes its copy (docs/design.md, Decision 1), then --rounds
 * times drops the graph and times the load from the copy, the first recall and a second one:
 *
 *   npm run bench:wake -- [--nodes 10000] [--rounds 25]
 *
 * Prints the smallest, the 25th percentile and the median of each (on a shared machine the smallest
 * is the figure least disturbed by other jobs). A probe for comparing two versions of the load, not a
 * record: the cold section of `npm run bench:speed` is (docs/BENCHMARKS.md, "The cold path").
 */
import { parseArgs } from "node:util";
import { DEFAULT_PARAMS } from "../src/config/params";
import { OfflineAgent } from "./offline/offline-agent";
import { chatStream, keywordQueries } from "./speed/streams";

const { values } = parseArgs({ options: { nodes: { type: "string", default: "10000" }, rounds: { type: "string", default: "25" } } });
const nodes = Number(values.nodes);
const rounds = Number(values.rounds);
if (!(Number.isInteger(nodes) && nodes > 0 && Number.isInteger(rounds) && rounds > 0))
  throw new Error("--nodes and --rounds must be positive whole numbers");

const agent = await OfflineAgent.create(DEFAULT_PARAMS);
for (let call = 0; ((await agent.state.graph())?.nodeCount ?? 0) < nodes; call++) {
  await agent.remember(chatStream("en", 400, 1000 + call, `p-${call}`));
}
agent.state.network.writeSnapshot();
const graph = await agent.state.graph();
const times = { load: [] as number[], firstRecall: [] as number[], secondRecall: [] as number[] };
for (let r = 0; r < rounds; r++) {
  agent.state.dropGraph();
  let t = performance.now();
  await agent.state.graph();
  times.load.push(performance.now() - t);
  const query = (keywordQueries("en", 1, 700 + r)[0] ?? []).join(" ");
  t = performance.now();
  await agent.recall(query, 20);
  times.firstRecall.push(performance.now() - t);
  t = performance.now();
  await agent.recall(`${query} x`, 20);
  times.secondRecall.push(performance.now() - t);
}
const at = (sorted: number[], q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
console.log(`${graph?.nodeCount ?? 0} nodes, ${graph?.linkCount ?? 0} links, ${rounds} wakes (ms: smallest / 25th percentile / median)`);
for (const [name, xs] of Object.entries(times)) {
  const sorted = [...xs].sort((a, b) => a - b);
  console.log(`${name.padEnd(13)} ${at(sorted, 0)} / ${at(sorted, 0.25)} / ${at(sorted, 0.5)}`);
}
