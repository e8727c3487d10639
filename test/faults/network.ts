/**
 * An agent's whole network as the API shows it, read once its queue is idle: parameters, focus,
 * stats, every node with its links (node ids are small integers from 1: read until every node the
 * stats count is found and a run of 404s lies past the highest id seen anywhere), keyword searches
 * for the code word of every message the agent was sent (25 to a query), a few recalls and vector
 * searches.
 *
 * What depends on when the run happened, not on what it did, is left out: creation times and task
 * ids (a node's source task is kept as the order in which tasks first appear, so two runs still
 * agree on which nodes one remember created), queue counts other than failures, timings.
 */
import type { Agent, Config, Focus, Link, NodeView, Stats } from "./api";
import { codesIn } from "./workload";

/** Ids past the highest seen that must all be 404 before the enumeration stops. */
const TAIL = 32;
/** Requests in flight per agent while reading. */
const READ_WIDTH = 6;
/** Code words per keyword search. */
const CODES_PER_SEARCH = 25;

export interface CanonLink {
  source: number;
  target: number;
  relation: string;
  strength: number;
  pinned: boolean;
  dangling: boolean;
}

export interface CanonNode {
  id: number;
  kind: string;
  name: string | null;
  content: string;
  original_length: number;
  phrase: string;
  keywords: string[];
  role: string | null;
  speaker: string | null;
  source_message_ids: string[];
  /** The source task as an index in order of first appearance (null: none). */
  source_task: number | null;
  message_time: number | null;
  scan_count: number;
  in_focus: boolean;
  importance: number;
  superseded_by: number | null;
  pinned: boolean;
  outgoing: CanonLink[];
  incoming: CanonLink[];
}

export interface SearchHit {
  node_id: number;
  content: string;
  source_message_ids: string[];
  score: number;
}

export interface NetworkSnapshot {
  agent: string;
  config: Config;
  focus: Focus["focus"];
  stats: Stats;
  nodes: CanonNode[];
  /** Source task index → the raw task id (faulty-run checks only). */
  taskIds: string[];
  /** Ids read (1..lastId) to find the nodes. */
  lastId: number;
  /** Code word → keyword-search hits that contain it. */
  codeHits: Record<string, SearchHit[]>;
  /** Fixed recall and vector-search queries → node ids and contents in rank order. */
  reads: Record<string, { node_id: number | null; content: string | null; type: string }[]>;
}

async function pool<T>(xs: readonly T[], width: number, f: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < xs.length) {
      const x = xs[next++];
      if (x !== undefined) await f(x);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, xs.length) }, worker));
}

const canonLink = (l: Link): CanonLink => ({
  source: l.source,
  target: l.target,
  relation: l.relation,
  strength: l.strength,
  pinned: l.pinned,
  dangling: l.dangling,
});

const byLink = (a: CanonLink, b: CanonLink) => a.source - b.source || a.target - b.target || a.relation.localeCompare(b.relation);

/**
 * Every node, ids 1 upwards, 64 at a time: stops once `total` are found and the TAIL ids past the
 * highest id seen (nodes, link ends, the focus) are all 404; short of `total`, it keeps looking up
 * to 16 × TAIL ids past the highest seen (the comparison then reports the difference).
 */
async function readNodes(agent: Agent, total: number, seen: number): Promise<{ views: NodeView[]; lastId: number }> {
  const views = new Map<number, NodeView>();
  let highest = seen;
  let lastId = 0;
  while (lastId < highest + TAIL || (views.size < total && lastId < highest + 16 * TAIL)) {
    const ids = Array.from({ length: 64 }, (_, i) => lastId + 1 + i);
    await pool(ids, READ_WIDTH, async (id) => {
      const view = await agent.node(id);
      if (!view) return;
      views.set(id, view);
      highest = Math.max(highest, id);
      for (const l of [...view.links.outgoing, ...view.links.incoming]) highest = Math.max(highest, l.source, l.target);
    });
    lastId += 64;
  }
  return { views: [...views.values()].sort((a, b) => a.node_id - b.node_id), lastId };
}

/** Fixed read queries per agent (recall by keywords, vector search), chosen by the stream's vocabulary. */
const RECALLS: readonly string[][] = [
  ["Alice", "library"],
  ["billing", "Lisbon"],
  ["张伟", "北京"],
];
const VECTOR_QUERIES: readonly string[] = ["marathon training in Osaka", "用户系统的评审"];

/**
 * Reads the agent's network; `codes` are the code words of every message it was ever sent
 * (searched one by one).
 */
export async function readNetwork(agent: Agent, codes: readonly string[]): Promise<NetworkSnapshot> {
  const stats = await agent.idle();
  const [config, focus] = [await agent.config(), await agent.focus()];
  const seen = Math.max(0, ...focus.focus.map((f) => f.node_id));
  const { views, lastId } = await readNodes(agent, stats.nodes.total, seen);
  const taskIndex = new Map<string, number>();
  const nodes: CanonNode[] = views.map((v) => {
    let source_task: number | null = null;
    if (v.source_task_id !== null) {
      source_task = taskIndex.get(v.source_task_id) ?? taskIndex.size;
      taskIndex.set(v.source_task_id, source_task);
    }
    return {
      id: v.node_id,
      kind: v.kind,
      name: v.name,
      content: v.content,
      original_length: v.original_length,
      phrase: v.phrase,
      keywords: v.keywords,
      role: v.role,
      speaker: v.speaker,
      source_message_ids: v.source_message_ids,
      source_task,
      message_time: v.message_time,
      scan_count: v.scan_count,
      in_focus: v.in_focus,
      importance: v.importance,
      superseded_by: v.superseded_by,
      pinned: v.pinned,
      outgoing: v.links.outgoing.map(canonLink).sort(byLink),
      incoming: v.links.incoming.map(canonLink).sort(byLink),
    };
  });
  // Code words CODES_PER_SEARCH to a query (top_k 100 leaves room for any duplicate to show); the
  // hits of each code word are the items whose text contains it.
  const codeHits: Record<string, SearchHit[]> = {};
  const groups = Array.from({ length: Math.ceil(codes.length / CODES_PER_SEARCH) }, (_, i) =>
    codes.slice(i * CODES_PER_SEARCH, (i + 1) * CODES_PER_SEARCH),
  );
  await pool(groups, READ_WIDTH, async (group) => {
    const items = await agent.search(group.join(" "), "keyword", 100);
    for (const code of group) {
      codeHits[code] = items
        .filter((it) => codesIn(it.content).includes(code))
        .map((it) => ({ node_id: it.node_id, content: it.content, source_message_ids: it.source_message_ids, score: it.score }));
    }
  });
  const reads: NetworkSnapshot["reads"] = {};
  for (const keywords of RECALLS) {
    const recall = await agent.recall(keywords, 20);
    reads[`recall ${keywords.join(" ")}`] = recall.items.map((it) => ({
      type: it.type,
      node_id: it.node_id ?? null,
      content: it.content ?? null,
    }));
  }
  for (const query of VECTOR_QUERIES) {
    const items = await agent.search(query, "vector", 20);
    reads[`vector ${query}`] = items.map((it) => ({ type: "search", node_id: it.node_id, content: it.content }));
  }
  return { agent: agent.id, config, focus: focus.focus, stats, nodes, taskIds: [...taskIndex.keys()], lastId, codeHits, reads };
}
