/**
 * The marker of an agent past the graph's limits (docs/design.md, "Decision 3"), kept in the
 * object's meta (`pastLimits`): the counts a load or a write found, so a wake serves the agent from
 * D1 without loading pages. Its counts are a lower bound of the agent's size while it exists: a
 * write that may leave fewer nodes or links (the write table's `shrinks`) removes it in its commit.
 * So a marker that passes the limits in force proves the agent past them; a wrong one could cost
 * only speed (the D1 path answers the same as the graph).
 */
import { GRAPH_LIMITS, pastLimits, type NetworkSize } from "../engine/graph-loader";
import type { MetaStore } from "../engine/stores/meta-store";
import { writeKind } from "../engine/write-table";
import type { NetworkOp } from "../memory/write-ops";

export class PastLimits {
  /** Beyond these the graph is not held (replaceable in tests, to reach an agent past them with a few writes). */
  limits: NetworkSize = GRAPH_LIMITS;

  constructor(private readonly meta: MetaStore) {}

  /** Whether the agent is known to be past the limits. */
  known(): boolean {
    const marked = this.meta.get("pastLimits");
    return marked !== undefined && pastLimits(marked, this.limits);
  }

  /** What a whole load found: past the limits with (at least) these counts, or fitting (undefined). */
  found(past: NetworkSize | undefined): void {
    if (past) this.meta.set("pastLimits", past);
    else this.clear();
  }

  /** Marks a held graph grown past the limits; whether it is. */
  markIfPast(graph: { readonly nodeCount: number; readonly linkCount: number }): boolean {
    const size = { nodes: graph.nodeCount, links: graph.linkCount };
    if (!pastLimits(size, this.limits)) return false;
    this.meta.set("pastLimits", size);
    return true;
  }

  /** The marker proves nothing any more (the agent may fit). */
  private clear(): void {
    if (this.meta.get("pastLimits")) this.meta.delete("pastLimits");
  }

  /** In a commit's step 5: fewer nodes or links may fit again, so the next load counts them. */
  follow(network: readonly NetworkOp[]): void {
    if (network.some((op) => writeKind(op.type).shrinks)) this.clear();
  }
}
