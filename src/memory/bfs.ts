/**
 * Recall's breadth-first search (docs/design.md, "recall(keywords, relations, depth)"): from the start nodes (the focus, or
 * search hits for a cold agent), `depth` layers out, following links in both directions. Each
 * layer costs one `expand` call (one query for all the frontier's links) and one `load` call (one
 * query for the newly reached nodes), so the cost is bounded by the depth, not the network size.
 *
 * A link whose target no longer exists is a dangling link (docs/design.md, "The model"): it is not followed,
 * it is reported as a trace that something was once known there.
 */

export interface Edge {
  source: number;
  target: number;
  relation: string;
  /** Current strength in (0, 1]. */
  strength: number;
}

export interface Reached<N> {
  node: N;
  depth: number;
  /** Strongest path from a start node: the product of link strengths along it (start = 1). */
  pathStrength: number;
}

export interface DanglingLink {
  source: number;
  target: number;
  relation: string;
  strength: number;
}

export interface BfsResult<N> {
  reached: Map<number, Reached<N>>;
  /** Every link followed or examined between reached nodes (both ends reached). */
  edges: Edge[];
  dangling: DanglingLink[];
  /**
   * When present, the reached nodes linked to `entityId` by 关于, answered from the source instead
   * of `edges` (the in-memory traversal keeps no edge list).
   */
  about?: (entityId: number) => number[];
}

export interface BfsSource<N> {
  /** All links with an end in `frontier` (either direction), already filtered by relation; each once. */
  expand(frontier: number[]): Promise<Edge[]>;
  /** The nodes among `ids` that exist. */
  load(ids: number[]): Promise<Map<number, N>>;
}

export async function breadthFirst<N>(start: ReadonlyMap<number, number>, depth: number, source: BfsSource<N>): Promise<BfsResult<N>> {
  const reached = new Map<number, Reached<N>>();
  const startNodes = await source.load([...start.keys()]);
  for (const [id, node] of startNodes) reached.set(id, { node, depth: 0, pathStrength: start.get(id) ?? 1 });

  const edges: Edge[] = [];
  const dangling: DanglingLink[] = [];
  const knownMissing = new Set<number>();
  let frontier = [...reached.keys()];
  let previous: ReadonlySet<number> = new Set();

  for (let layer = 1; layer <= depth && frontier.length > 0; layer++) {
    const found = await source.expand(frontier);
    const inFrontier = new Set(frontier);
    const candidates = new Map<number, number>();
    const pending: Edge[] = [];
    for (const edge of found) {
      // Examined already exactly when an end was in the previous frontier: every frontier is nodes
      // reached in the layer before it, so a link comes back once, in the layer after the one that
      // found it (no key per link: a layer of an agent read from D1 has hundreds of thousands).
      if (previous.has(edge.source) || previous.has(edge.target)) continue;
      pending.push(edge);
      for (const [from, to] of endsOf(edge, inFrontier)) {
        if (reached.has(to) || knownMissing.has(to)) continue;
        const strength = (reached.get(from)?.pathStrength ?? 0) * edge.strength;
        candidates.set(to, Math.max(candidates.get(to) ?? 0, strength));
      }
    }
    const loaded = await source.load([...candidates.keys()]);
    for (const [id, strength] of candidates) {
      const node = loaded.get(id);
      if (node === undefined) knownMissing.add(id);
      else reached.set(id, { node, depth: layer, pathStrength: strength });
    }
    for (const edge of pending) {
      if (reached.has(edge.source) && reached.has(edge.target)) edges.push(edge);
      else if (reached.has(edge.source) && knownMissing.has(edge.target)) dangling.push(edge);
    }
    previous = inFrontier;
    frontier = [...candidates.keys()].filter((id) => reached.has(id));
  }
  return { reached, edges, dangling };
}

/** The (from, to) directions in which `edge` leads out of the frontier. */
function endsOf(edge: Edge, frontier: ReadonlySet<number>): [number, number][] {
  const out: [number, number][] = [];
  if (frontier.has(edge.source)) out.push([edge.source, edge.target]);
  if (frontier.has(edge.target)) out.push([edge.target, edge.source]);
  return out;
}

/** Union of two searches over the same network: each node keeps its strongest path. */
export function mergeBfs<N>(a: BfsResult<N>, b: BfsResult<N>): BfsResult<N> {
  const reached = new Map(a.reached);
  for (const [id, r] of b.reached) {
    const existing = reached.get(id);
    if (!existing || r.pathStrength > existing.pathStrength) reached.set(id, r);
  }
  const about = a.about && b.about ? mergeAbout(a.about, b.about, reached) : undefined;
  return { reached, edges: [...a.edges, ...b.edges], dangling: [...a.dangling, ...b.dangling], ...(about ? { about } : {}) };
}

function mergeAbout(
  a: (entityId: number) => number[],
  b: (entityId: number) => number[],
  reached: ReadonlyMap<number, unknown>,
): (entityId: number) => number[] {
  return (entityId) => [...new Set([...a(entityId), ...b(entityId)])].filter((id) => reached.has(id));
}
