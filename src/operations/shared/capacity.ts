/**
 * Capacity, scheme A (docs/design.md, "Compression"): after a remember, an agent holding more than `capacity` nodes
 * (within its tenant's nodes-per-agent quota: MetaStore.capacity)
 * deletes its least important ones, chosen from a seeded random sample of node ids (whole when the
 * network is small) rather than a full sort. Focus nodes and pinned memories (docs/design.md, "Pins")
 * are never evicted. Like any deletion, the
 * victims' outgoing links go with them and links into them stay behind, dangling.
 */
import { MAX_NODE_ID } from "../../config/limits";
import { pickEvictions, sampleIds, sampleSize, seededRandom } from "../../memory/capacity";
import { importanceOf } from "../../memory/importance";
import { forgottenNodes } from "../../memory/write-ops";
import { networkReader } from "../../engine/network-reader";
import type { AgentStores, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";

/** Deletes the excess nodes (one commit, saving `checkpoint(evicted)` with it); returns how many. */
export async function enforceCapacity(
  rt: AgentStores & WritePath,
  taskId: string,
  checkpoint: (evicted: number) => unknown,
): Promise<number> {
  const capacity = rt.meta.capacity();
  const repos = await rt.repos();
  const reader = await networkReader(rt, repos);
  const excess = (await reader.count()) - capacity;
  if (excess <= 0) return 0;
  const range = await repos.nodes.idRange();
  if (!range) return 0;
  const held = new Set([...rt.focus.ids(), ...(await reader.find({ pinned: true }, MAX_NODE_ID)).map((n) => n.id)]);
  // Seeded by the node counter: the same history evicts the same nodes (benchmarks are repeatable).
  const random = seededRandom(rt.meta.nextNodeId());
  const sampled = sampleIds(range.min, range.max, sampleSize(excess), random);
  let candidates = [...(await reader.load(sampled)).keys()].filter((id) => !held.has(id));
  if (candidates.length < excess * 2) candidates = (await repos.nodes.allIds()).filter((id) => !held.has(id));
  const strengths = await reader.outgoingStrengths(candidates, rt.meta.clock());
  const victims = pickEvictions(
    candidates.map((id) => ({ id, importance: importanceOf(strengths.get(id) ?? []) })),
    excess,
  );
  if (victims.length === 0) return 0;
  const forgotten = forgottenNodes((await reader.load(victims)).values());
  await commit(
    rt,
    taskId,
    [
      { type: "deleteNodes", ids: victims },
      { type: "recordForgotten", nodes: forgotten },
      { type: "count", counters: { nodes_evicted: victims.length } },
    ],
    { checkpoint: checkpoint(victims.length) },
  );
  return victims.length;
}
