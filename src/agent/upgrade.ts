/**
 * Upgrades an agent's data written by an earlier layout, once, when its object wakes (before any
 * request). Each step runs once, in order:
 *
 * - layout 2 (focus releases, scan bookkeeping in the object): links incident to the focus were
 *   stored at a sentinel level; they are now stored like any other link and pinned by the focus
 *   at read time (docs/design.md, "The model"), so the sentinel rows are re-levelled at strength 1 now (which
 *   is what they were). Scan counts lived on the D1 rows; the object now keeps them. The old
 *   counts are not carried over: every node starts at zero, which only reorders the next scans
 *   (an approximate order is allowed, docs/design.md, "Compression").
 * - layout 3 (the agent's own full-text statistics): every node's full-text document length.
 * - layout 4 (one analyzer for memories and queries, src/language/tokens/index-terms.ts; a node's time in its
 *   document): every node's full-text row and document length are written again.
 */
import { PINNED_LEVEL } from "../memory/strength";
import { indexTokens } from "../search/bm25-index";
import { ftsDocument } from "../search/fts-text";
import { runBatch } from "../storage/batch";
import type { AgentState } from "./agent-state";
import { DATA_VERSION } from "../engine/stores/meta-store";
import type { AgentRepos } from "../engine/runtime";

const PAGE = 2_000;

export async function upgradeAgentData(state: AgentState): Promise<void> {
  const repos = state.existingRepos();
  const version = state.meta.get("dataVersion") ?? 1;
  if (!repos || version >= DATA_VERSION) return;
  // The upgrade writes D1 outside the write path: the object's copy is rebuilt from D1 after it.
  state.network.snapshots.drop();
  if (version < 2) {
    await runBatch(state.d1, [repos.links.relevelStatement(PINNED_LEVEL, state.meta.clock())]);
    const ids = await repos.nodes.allIds();
    state.storage.transactionSync(() => state.scans.add(ids, state.meta.scanCycles()));
  }
  // Layout 4 rewrites every document and its length, which layout 3 only counted.
  if (version < 4) await reindexDocuments(state, repos);
  state.meta.set("dataVersion", DATA_VERSION);
}

async function reindexDocuments(state: AgentState, repos: AgentRepos): Promise<void> {
  for (let after = 0; ;) {
    const page = await repos.nodes.page(after, PAGE);
    if (page.length === 0) return;
    const documents = page.map((n) => ({ nodeId: n.id, terms: ftsDocument(n) }));
    const lengths = documents.map((d) => ({ id: d.nodeId, tokens: indexTokens(d.terms).length }));
    await runBatch(state.d1, [...repos.fts.upsertStatements(documents), repos.nodes.ftsTokensStatement(lengths)]);
    after = page[page.length - 1]?.id ?? after;
    if (page.length < PAGE) return;
  }
}
