/**
 * recall (docs/design.md, "recall(keywords, relations, depth)") as a pure algorithm over an agent's network, whatever holds it (the
 * in-memory graph or D1, src/operations/recall/task.ts; an in-process simulation in the benchmark):
 *
 * 1. **Reach**: breadth-first from the focus, `depth` layers; with `start: "hybrid"` (the default)
 *    also one layer out from the best entry points of a keyword + vector search for the query
 *    (fusion.ts), so memories beyond the focus's reach are found.
 * 2. **Match**: the reached nodes whose own text holds a query term. Their links to other reached
 *    nodes carry context: a matched segment lends its words to the segments before and after it
 *    (上文/下文), a matched entity its name to the memories linked to it (other than by 关于, whose
 *    name the memory says itself).
 * 3. **Score**: every reached memory with a match in its text or its context gets a BM25F score
 *    over its fields (field-score.ts), fused with vector similarity, times the network prior
 *    (ranking.ts). A segment that asks a question lends its words to the other speaker's segment
 *    after it (its answer) as the answer's own, and its own text counts less (field-score.ts).
 *
 * A read's filter (docs/design.md, "Filters choose what a read returns, not what it walks") chooses
 * what is returned (`returns`), never what is walked: a node that does not pass is still reached
 * and still lends its words as context. An expired memory (`visible`) is neither returned nor
 * lends anything, and a trace is shown only when its source follows the filter (`traceFrom`).
 *
 * Reading only: the focus and every strength stay as they are.
 */
import { MAX_RECALL_TRACES } from "../config/limits";
import type { AgentParams } from "../config/params";
import { vectorFusionWeight } from "../config/retrieval";
import type { BfsResult, Edge } from "./bfs";
import { mergeBfs } from "./bfs";
import { FieldScorer, type FieldWeights, type TermStatistics } from "./field-score";
import { fuseScores, normalisedScores } from "./fusion";
import { importanceOf } from "./importance";
import { importanceNeeded, rankMemories, scoreMemories, type RankedMemory, type RankingWeights } from "./ranking";
import { isRecallable, RECALLED_KINDS, selectTraces, type ForgottenTrace } from "./recall-result";
import type { NodeKind } from "../vocabulary/node-kinds";
import { documentFields, type DocumentFields } from "../search/fts-text";
import type { MemoryNode } from "../vocabulary/records";
import { RELATION } from "../vocabulary/relations";

/** What recall reads of a network. */
export interface RecallNetwork {
  /** Breadth-first search from `start` (node → start strength), `depth` layers. */
  traverse(start: ReadonlyMap<number, number>, depth: number): Promise<BfsResult<MemoryNode>>;
  /** The links with an end in `ids`, with their strengths now (only the relations recall follows). */
  expand(ids: readonly number[]): Promise<Edge[]>;
  /** Outgoing strengths per node, dangling links included: importance. */
  outgoingStrengths(ids: readonly number[]): Promise<Map<number, number[]>>;
  /** The agent's full-text statistics for `terms`. */
  statistics(terms: readonly string[]): Promise<TermStatistics>;
  /**
   * Keyword (BM25) and, when `vectors`, vector scores of the best `limit` entry points for the
   * query, recallable kinds and entities only.
   */
  entryPoints(
    query: string,
    limit: number,
    vectors: boolean,
  ): Promise<{ keyword: ReadonlyMap<number, number>; vector: ReadonlyMap<number, number> }>;
  /** The nodes whose full-text document holds `term`, when an index answers it (else every reached node is read). */
  withTerm?(term: string): Iterable<number>;
}

export interface RecallSettings {
  depth: number;
  limit: number;
  start: "hybrid" | "focus";
  /** Kinds of memory returned (RECALLED_KINDS unless the request asks for episodes too). */
  kinds?: ReadonlySet<NodeKind>;
  fields: FieldWeights;
  ranking: RankingWeights;
  maxTraces: number;
  /** Which recallable memories may be returned (the read's filter); every one when absent. */
  returns?: (node: MemoryNode) => boolean;
  /** Which reached nodes take part at all (not expired); every one when absent. */
  visible?: (node: MemoryNode) => boolean;
  /** Which nodes' dangling links may be shown as traces; every one when absent. */
  traceFrom?: (node: MemoryNode) => boolean;
}

export interface RecallOutcome {
  memories: RankedMemory<MemoryNode>[];
  traces: ForgottenTrace[];
  startNodes: number;
  reachedNodes: number;
}

/** An agent's recall parameters (docs/design.md, "Parameters") as the engine takes them. */
export function recallSettingsOf(params: AgentParams, embedderName: string): Omit<RecallSettings, "depth" | "limit" | "start"> {
  return {
    fields: {
      neighbours: params.recall_neighbour_weight,
      entities: params.recall_entity_weight,
      speaker: params.recall_speaker_weight,
      time: params.recall_time_weight,
    },
    ranking: { vector: params.recall_vectors ? vectorFusionWeight(embedderName) : 0, prior: params.recall_graph_prior },
    maxTraces: MAX_RECALL_TRACES,
  };
}

/**
 * Entry points of hybrid recall (docs/design.md, "recall(keywords, relations, depth)"): how many, how far out
 * from them, and their start strength (below a focus node's 1).
 */
export const SEED_HITS = 40;
export const SEED_DEPTH = 1;
export const SEED_STRENGTH = 0.5;

const NEIGHBOURS: ReadonlySet<string> = new Set([RELATION.next, RELATION.previous]);

export async function recallMemories(
  net: RecallNetwork,
  focus: readonly number[],
  terms: readonly string[],
  query: string,
  settings: RecallSettings,
): Promise<RecallOutcome> {
  const hasQuery = terms.length > 0;
  // The focus's walk and the entry points' search do not depend on each other: both at once (an
  // agent read from D1 waits for their statements side by side).
  const [focusBfs, entries] = await Promise.all([
    net.traverse(new Map(focus.map((id) => [id, 1])), settings.depth),
    // A vector weight of 0 (an embedder that adds nothing to BM25) spares the vector search.
    settings.start === "hybrid" && hasQuery ? net.entryPoints(query, SEED_HITS, settings.ranking.vector > 0) : undefined,
  ]);
  let bfs = focusBfs;
  let startNodes = focus.length;
  let vector: ReadonlyMap<number, number> = new Map();

  if (entries) {
    vector = normalisedScores(entries.vector, "min-max");
    const fused = fuseScores([
      { scores: entries.keyword, weight: 1 - settings.ranking.vector, normalise: "max" },
      { scores: entries.vector, weight: settings.ranking.vector, normalise: "min-max" },
    ]).slice(0, SEED_HITS);
    const best = fused[0]?.score ?? 1;
    const start = new Map(
      fused.filter((f) => !focusBfs.reached.has(f.id)).map((f) => [f.id, SEED_STRENGTH * (best > 0 ? f.score / best : 1)]),
    );
    if (start.size > 0) {
      bfs = mergeBfs(focusBfs, await net.traverse(start, Math.min(settings.depth, SEED_DEPTH)));
      startNodes += start.size;
    }
  }

  const reached = bfs.reached;
  const visible = settings.visible ?? (() => true);
  const returns = settings.returns ?? (() => true);
  const fieldsOf = (id: number): DocumentFields | undefined => {
    const r = reached.get(id);
    return r && visible(r.node) ? documentFields(r.node) : undefined;
  };
  const matched = hasQuery ? matchedNodes(net, reached, terms, fieldsOf) : new Set<number>();
  const kinds = settings.kinds ?? RECALLED_KINDS;
  const context = hasQuery ? await contexts(net, reached, matched, kinds) : new Map<number, Context>();

  // A vector hit is a candidate without any query word: what the embedder finds beyond BM25 (paraphrases).
  const vectorHits = [...vector].filter(([id, s]) => s > 0 && reached.has(id)).map(([id]) => id);
  const candidates = hasQuery
    ? [...new Set([...matched, ...context.keys(), ...vectorHits])].filter((id) => {
        const node = reached.get(id)?.node;
        return node !== undefined && isRecallable(node, kinds) && visible(node) && returns(node);
      })
    : [...reached].filter(([, r]) => isRecallable(r.node, kinds) && visible(r.node) && returns(r.node)).map(([id]) => id);
  const scorer = new FieldScorer(
    terms,
    hasQuery ? await net.statistics(terms) : { documents: 0, tokens: 0, documentFrequency: new Map() },
    settings.fields,
  );
  const hits = new Map<number, number>();
  for (const id of matched) hits.set(id, countTextHits(fieldsOf(id), terms));
  const items: RankedMemory<MemoryNode>[] = [];
  for (const id of candidates) {
    const r = reached.get(id);
    const fields = fieldsOf(id);
    if (!r || !fields) continue;
    const ctx = context.get(id);
    const scored = hasQuery
      ? scorer.score(fields, {
          neighbours: [...(ctx?.neighbours ?? [])].filter((n) => !ctx?.asked.has(n)).flatMap((n) => fieldsOf(n) ?? []),
          entities: [...(ctx?.entities ?? [])].flatMap((e) => fieldsOf(e) ?? []),
          asked: [...(ctx?.asked ?? [])].flatMap((n) => fieldsOf(n) ?? []),
          asks: asksQuestion(r.node),
        })
      : { score: 0, matched: 0 };
    if (hasQuery && scored.matched === 0 && !(vector.get(id) ?? 0)) continue;
    hits.set(id, scored.matched);
    items.push({
      id,
      node: r.node,
      hits: scored.matched,
      textScore: scored.score,
      similarity: vector.get(id) ?? 0,
      pathStrength: focusBfs.reached.get(id)?.pathStrength ?? 0,
      importance: 0,
      depth: r.depth,
      score: 0,
    });
  }
  const needed = importanceNeeded(items, settings.limit, settings.ranking, hasQuery);
  const outgoing = needed.length > 0 ? await net.outgoingStrengths(needed) : new Map<number, number[]>();
  for (const item of items) item.importance = importanceOf(outgoing.get(item.id) ?? []);
  scoreMemories(items, settings.ranking, hasQuery);

  return {
    memories: rankMemories(items, settings.limit),
    traces: selectTraces(bfs, hits, hasQuery, settings.maxTraces, settings.traceFrom),
    startNodes,
    reachedNodes: reached.size,
  };
}

interface Context {
  neighbours: Set<number>;
  entities: Set<number>;
  /** The neighbours that are the question this memory answers (a subset of `neighbours`). */
  asked: Set<number>;
}

/** A segment that ends with a question (closing quotes and brackets aside). */
export function asksQuestion(node: Pick<MemoryNode, "kind" | "content">): boolean {
  return node.kind === "segment" && /[?？][\s"'”’)）」』]*$/u.test(node.content);
}

/** Whether `answer` is another voice than `question`: another speaker, or without speakers another role. */
function anotherVoice(question: MemoryNode, answer: MemoryNode): boolean {
  if (question.speaker !== null || answer.speaker !== null) return question.speaker !== answer.speaker;
  return question.role !== answer.role;
}

/** Reached nodes (any kind) whose own text holds a query term. */
function matchedNodes(
  net: RecallNetwork,
  reached: BfsResult<MemoryNode>["reached"],
  terms: readonly string[],
  fieldsOf: (id: number) => DocumentFields | undefined,
): Set<number> {
  const matched = new Set<number>();
  const holds = (id: number) => terms.some((t) => fieldsOf(id)?.text.has(t));
  if (net.withTerm) {
    const { withTerm } = net;
    for (const term of terms) for (const id of withTerm(term)) if (!matched.has(id) && reached.has(id) && holds(id)) matched.add(id);
    return matched;
  }
  for (const id of reached.keys()) if (holds(id)) matched.add(id);
  return matched;
}

/** The context each reached memory gets from matched nodes linked to it (both ends reached). */
async function contexts(
  net: RecallNetwork,
  reached: BfsResult<MemoryNode>["reached"],
  matched: ReadonlySet<number>,
  kinds: ReadonlySet<NodeKind>,
): Promise<Map<number, Context>> {
  const out = new Map<number, Context>();
  if (matched.size === 0) return out;
  const edges = await net.expand([...matched].sort((a, b) => a - b));
  // `follows`: `to` is the segment after `from` (its 下文), so it may answer it.
  const lend = (from: number, to: number, relation: string, follows: boolean) => {
    if (from === to || !matched.has(from)) return;
    const source = reached.get(from)?.node;
    const target = reached.get(to)?.node;
    if (!source || !target || !isRecallable(target, kinds)) return;
    const neighbour = NEIGHBOURS.has(relation) && source.kind !== "entity";
    const entity = source.kind === "entity" && relation !== RELATION.about;
    if (!neighbour && !entity) return;
    let ctx = out.get(to);
    if (!ctx) {
      ctx = { neighbours: new Set(), entities: new Set(), asked: new Set() };
      out.set(to, ctx);
    }
    (neighbour ? ctx.neighbours : ctx.entities).add(from);
    if (neighbour && follows && asksQuestion(source) && anotherVoice(source, target)) ctx.asked.add(from);
  };
  for (const edge of edges) {
    // 下文 (next) points from a segment to the one after it, 上文 (previous) to the one before.
    lend(edge.source, edge.target, edge.relation, edge.relation === RELATION.next);
    lend(edge.target, edge.source, edge.relation, edge.relation === RELATION.previous);
  }
  return out;
}

function countTextHits(fields: DocumentFields | undefined, terms: readonly string[]): number {
  if (!fields) return 0;
  let n = 0;
  for (const t of terms) if (fields.text.has(t)) n += 1;
  return n;
}
