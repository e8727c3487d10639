/**
 * Upgrades an agent's data written by an earlier layout, once, when its object wakes (before any
 * request). Layout 2 (focus releases, scan bookkeeping in the object) replaced two things:
 *
 * - links incident to the focus were stored at a sentinel level; they are now stored like any
 *   other link and pinned by the focus at read time (src/memory/strength.ts), so the sentinel
 *   rows are re-levelled at strength 1 now (which is what they were);
 * - scan counts lived on the D1 rows; the object now keeps them (src/agent/scan-store.ts). The old
 *   counts are not carried over: every node starts at zero, which only reorders the next scans
 *   (docs/design.md §6 allows an approximate order).
 */
import { PINNED_LEVEL } from "../memory/strength";
import { runBatch } from "../storage/batch";
import type { AgentState } from "./agent-state";
import { DATA_VERSION } from "./meta-store";

export async function upgradeAgentData(state: AgentState): Promise<void> {
  const repos = state.existingRepos();
  if (!repos || (state.meta.get("dataVersion") ?? 1) >= DATA_VERSION) return;
  await runBatch(state.d1, [repos.links.relevelStatement(PINNED_LEVEL, state.meta.clock())]);
  const ids = await repos.nodes.allIds();
  state.storage.transactionSync(() => {
    state.scans.add(ids, state.meta.scanCycles());
    state.meta.set("dataVersion", DATA_VERSION);
  });
}
