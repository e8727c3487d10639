/**
 * Remember CPU per message, in process, paired between source trees (this one and, e.g., a copy of
 * an older commit made with `git archive`):
 *
 *   npx tsx --import ./scripts/wasm-hooks.mjs bench/run-remember-cpu.ts --rounds 5 --locomo FILE TREE…
 *
 * Each tree's in-process agent remembers conv-26 (419 messages), and the process's own CPU time
 * (user + system) is divided by the messages. A tree with bench/offline/offline-agent.ts runs the
 * real operations over in-memory SQLite (queue and storage included); an older tree runs its own
 * simulated agent (the remember plan, graph and local model without D1, the queue or
 * HTTP). The two harnesses do different work: ratios are only meaningful between trees that use the
 * same one, and each line names its harness. All trees
 * run in one process, their runs alternated (in reverse order every other round), so a loaded,
 * shared machine slows every tree alike; each run imports the tree's sim-agent afresh, so its model
 * and tag memo start empty. conv-30 and conv-41 warm each tree up first. The first tree is the
 * reference of the ratios. Trees older than this script need only their agent harness and
 * bench/lib (load.ts, locomo.ts); a tree with tagged words (src/language/tagging/tagged-words.ts, or
 * src/text/ before the language library) has its taggers loaded first.
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";

const { values, positionals } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, locomo: { type: "string" } },
  allowPositionals: true,
});
if (values.locomo === undefined || positionals.length === 0) {
  throw new Error("usage: run-remember-cpu.ts --rounds N --locomo FILE TREE…");
}
const locomoFile = path.resolve(values.locomo);
const rounds = Number(values.rounds);
const trees = positionals.map((p) => path.resolve(p));

function field(value: unknown, name: string): unknown {
  return (typeof value === "object" || typeof value === "function") && value !== null ? (Reflect.get(value, name) as unknown) : undefined;
}

function fn(module: unknown, name: string, tree: string): (...args: unknown[]) => unknown {
  const f = field(module, name);
  if (typeof f !== "function") throw new Error(`${tree}: no function ${name}`);
  return (...args: unknown[]) => Reflect.apply(f, undefined, args);
}

const url = (tree: string, file: string, query = "") => `${pathToFileURL(path.join(tree, file)).href}${query}`;

let sequence = 0;

/** CPU milliseconds per message for one fresh agent of `tree` remembering conversation `id`. */
async function run(tree: string, id: string): Promise<number> {
  sequence += 1;
  const agent = await agentOf(tree);
  const remember = field(agent, "remember");
  if (typeof remember !== "function") throw new Error(`${tree}: its agent has no remember`);
  const dataset = fn(await import(url(tree, "bench/lib/load.ts")), "loadLocomo", tree)(locomoFile);
  const conversations = field(dataset, "conversations");
  const conversation = Array.isArray(conversations) ? conversations.find((c: unknown) => field(c, "sampleId") === id) : undefined;
  if (conversation === undefined) throw new Error(`${locomoFile}: no ${id}`);
  const calls = fn(await import(url(tree, "bench/lib/locomo.ts")), "toRememberCalls", tree)(conversation);
  if (!Array.isArray(calls)) throw new Error(`${tree}: toRememberCalls gave no list`);
  const batches = calls.map((call: unknown) => {
    const batch = field(call, "messages");
    if (!Array.isArray(batch)) throw new Error(`${tree}: a remember call without messages`);
    return batch;
  });
  let messages = 0;
  const before = process.cpuUsage();
  for (const batch of batches) {
    await Reflect.apply(remember, agent, [batch]);
    messages += batch.length;
  }
  const used = process.cpuUsage(before);
  const close = field(agent, "close");
  if (typeof close === "function") Reflect.apply(close, agent, []);
  return (used.user + used.system) / 1000 / messages;
}

const harnessOf = (tree: string) => (existsSync(path.join(tree, "bench/offline/offline-agent.ts")) ? "offline-agent" : "sim-agent");

/** A fresh agent of `tree`, its module imported afresh so that its model and memos start empty. */
async function agentOf(tree: string): Promise<unknown> {
  if (harnessOf(tree) === "offline-agent") {
    const module: unknown = await import(url(tree, "bench/offline/offline-agent.ts", `?run=${sequence}`));
    const params = field(await import(url(tree, "src/config/params.ts")), "DEFAULT_PARAMS");
    const create = field(field(module, "OfflineAgent"), "create");
    if (typeof create !== "function") throw new Error(`${tree}: no OfflineAgent.create`);
    return Reflect.apply(create, field(module, "OfflineAgent"), [params]);
  }
  const module: unknown = await import(url(tree, "bench/offline/sim-agent.ts", `?run=${sequence}`));
  const SimAgent = field(module, "SimAgent");
  if (typeof SimAgent !== "function") throw new Error(`${tree}: no SimAgent`);
  return Reflect.construct(SimAgent, []);
}

for (const tree of trees) {
  const taggers: unknown = await import(url(tree, "src/language/tagging/tagged-words.ts"))
    .catch(() => import(url(tree, "src/text/tagged-words.ts")))
    .catch(() => undefined);
  if (typeof field(taggers, "loadTaggers") === "function") await fn(taggers, "loadTaggers", tree)();
  await run(tree, "conv-30");
  await run(tree, "conv-41");
}
const perTree = new Map<string, number[]>(trees.map((t) => [t, []]));
for (let round = 0; round < rounds; round++) {
  for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) perTree.get(tree)?.push(await run(tree, "conv-26"));
}
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const reference = median(perTree.get(trees[0] ?? "") ?? []);
for (const [tree, xs] of perTree) {
  const m = median(xs);
  console.log(
    `${tree} (${harnessOf(tree)}): median ${m.toFixed(3)} ms a message (×${(m / reference).toFixed(2)}), runs ${xs.map((x) => x.toFixed(2)).join(" ")}`,
  );
}
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
