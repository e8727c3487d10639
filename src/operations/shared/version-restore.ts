/**
 * Versions restored before their correctors go (docs/design.md, "Sessions as a resource", "Expiry
 * is a purge at a time set in advance"): when memories are deleted as a set (a session, the
 * memories whose expiry passed), a version outside the set that one of them superseded would
 * otherwise go with it as its "earlier version". The correction came from what is going, so the
 * nearest later version that stays becomes its `superseded_by` again, or none (it is current).
 */
import type { WriteOp } from "../../memory/write-ops";
import type { AgentRepos } from "../../engine/runtime";
import type { MemoryNode } from "../../vocabulary/records";

/** Steps along a chain of versions before giving up on finding a survivor (chains are short). */
const MAX_CHAIN_STEPS = 10_000;

/** The write that restores the versions `doomed` superseded that do not `go` with them, and how many. */
export async function restoreOps(
  repos: AgentRepos,
  doomed: readonly MemoryNode[],
  goes: (node: MemoryNode) => boolean,
): Promise<{ ops: WriteOp[]; restored: number }> {
  const earlier = (await repos.nodes.supersededByAny(doomed.map((n) => n.id))).filter((n) => !goes(n));
  if (earlier.length === 0) return { ops: [], restored: 0 };
  const known = new Map(doomed.map((n) => [n.id, n]));
  const survivor = async (id: number | null): Promise<number | null> => {
    for (let steps = 0; id !== null && steps < MAX_CHAIN_STEPS; steps++) {
      const node = known.get(id) ?? (await repos.nodes.get(id));
      if (!node) return null;
      known.set(id, node);
      if (!goes(node)) return node.id;
      id = node.supersededBy;
    }
    return null;
  };
  const byTarget = new Map<number | null, number[]>();
  for (const node of earlier) {
    const target = await survivor(node.supersededBy);
    byTarget.set(target, [...(byTarget.get(target) ?? []), node.id]);
  }
  const ops: WriteOp[] = [...byTarget].map(([target, ids]) => ({ type: "patchNodes", ids, fields: { supersededBy: target } }));
  return { ops, restored: earlier.length };
}
