/**
 * An inverted index of the in-memory graph's nodes: each node's prepared text (normalised text and
 * terms, exactly what keyword matching reads) by id, and for each term the nodes that have it.
 * Recall then finds the nodes matching an English keyword from its terms' postings instead of
 * testing every node the search reached (thousands at 10k nodes, most matching nothing). Kept
 * exact by the graph on every node insert, content change and deletion; keyed by node id, so the
 * graph replacing a node object for a new scan count costs nothing here.
 */
import { prepareText, type MatchableText, type PreparedText, type TermLookup } from "./keyword-match";

export class TermIndex implements TermLookup {
  private readonly byId = new Map<number, PreparedText>();
  private readonly postings = new Map<string, Set<number>>();

  static build(nodes: Iterable<MatchableText & { id: number }>): TermIndex {
    const index = new TermIndex();
    for (const node of nodes) index.add(node.id, node);
    return index;
  }

  add(id: number, node: MatchableText): void {
    this.remove(id);
    const prepared = prepareText(node);
    this.byId.set(id, prepared);
    for (const term of prepared.terms) {
      const set = this.postings.get(term);
      if (set) set.add(id);
      else this.postings.set(term, new Set([id]));
    }
  }

  remove(id: number): void {
    const prepared = this.byId.get(id);
    if (!prepared) return;
    this.byId.delete(id);
    for (const term of prepared.terms) {
      const set = this.postings.get(term);
      if (!set) continue;
      set.delete(id);
      if (set.size === 0) this.postings.delete(term);
    }
  }

  prepared(id: number): PreparedText | undefined {
    return this.byId.get(id);
  }

  withTerm(term: string): ReadonlySet<number> | undefined {
    return this.postings.get(term);
  }

  get size(): number {
    return this.byId.size;
  }
}
