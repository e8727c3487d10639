/**
 * The fault suite's verdicts: an agent of the faulty run against its fault-free twin
 * (`diffNetworks`), and each agent on its own (`checkNetwork`: every accepted message stored
 * exactly once, nothing foreign, the indexes agreeing with the nodes). Each returns the mismatches
 * found, as sentences; none means the check passed. Pure module.
 */
import type { CanonLink, CanonNode, NetworkSnapshot } from "./network";
import { codesIn } from "./workload";

/** Strengths and scores are floats computed the same way on both sides; this only absorbs printing. */
const TOLERANCE = 1e-9;
/** Mismatches listed per agent and kind before "… and n more". */
const LIST = 8;

const close = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
const show = (x: unknown) => JSON.stringify(x);

function linkKey(l: CanonLink): string {
  return `${l.source}→${l.target} ${l.relation}`;
}

function diffLinks(where: string, a: readonly CanonLink[], b: readonly CanonLink[], out: string[]): void {
  const bs = new Map(b.map((l) => [linkKey(l), l]));
  const as = new Map(a.map((l) => [linkKey(l), l]));
  for (const [key, la] of as) {
    const lb = bs.get(key);
    if (!lb) out.push(`${where}: link ${key} only in the faulty run`);
    else if (!close(la.strength, lb.strength) || la.pinned !== lb.pinned || la.dangling !== lb.dangling) {
      out.push(`${where}: link ${key}: ${show([la.strength, la.pinned, la.dangling])} vs ${show([lb.strength, lb.pinned, lb.dangling])}`);
    }
  }
  for (const key of bs.keys()) if (!as.has(key)) out.push(`${where}: link ${key} only in the twin`);
}

const NODE_FIELDS = [
  "kind",
  "name",
  "content",
  "original_length",
  "phrase",
  "keywords",
  "role",
  "speaker",
  "source_message_ids",
  "source_task",
  "message_time",
  "scan_count",
  "in_focus",
] as const satisfies readonly (keyof CanonNode)[];

function diffNode(a: CanonNode, b: CanonNode, out: string[]): void {
  const where = `node ${a.id}`;
  for (const field of NODE_FIELDS) {
    if (show(a[field]) !== show(b[field])) out.push(`${where}: ${field} ${show(a[field])} vs ${show(b[field])}`);
  }
  if (!close(a.importance, b.importance)) out.push(`${where}: importance ${a.importance} vs ${b.importance}`);
  diffLinks(where, a.outgoing, b.outgoing, out);
  diffLinks(where, a.incoming, b.incoming, out);
}

/** Counters that exist on one side only count as 0 on the other (counters appear when first moved). */
function diffCounters(a: Record<string, number>, b: Record<string, number>, out: string[]): void {
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [a[name] ?? 0, b[name] ?? 0];
    if (x !== y) out.push(`stats counter ${name}: ${x} vs ${y}`);
  }
}

/** `faulty` against `twin`: everything the API shows of the two networks must be the same. */
export function diffNetworks(faulty: NetworkSnapshot, twin: NetworkSnapshot): string[] {
  const out: string[] = [];
  const [a, b] = [faulty, twin];
  for (const key of new Set([...Object.keys(a.config), ...Object.keys(b.config)])) {
    if (show(a.config[key]) !== show(b.config[key])) out.push(`config ${key}: ${show(a.config[key])} vs ${show(b.config[key])}`);
  }
  if (show(a.focus) !== show(b.focus)) out.push(`focus ${show(a.focus)} vs ${show(b.focus)}`);
  const sa = a.stats;
  const sb = b.stats;
  const figures: [string, number | null | undefined, number | null | undefined][] = [
    ["nodes", sa.nodes.total, sb.nodes.total],
    ["segments", sa.nodes.segments, sb.nodes.segments],
    ["entities", sa.nodes.entities, sb.nodes.entities],
    ["links", sa.links.total, sb.links.total],
    ["dangling links", sa.links.dangling, sb.links.dangling],
    ["focus size", sa.focus, sb.focus],
    ["characters held", sa.characters.held, sb.characters.held],
    ["characters remembered", sa.characters.remembered, sb.characters.remembered],
    ["vectors", sa.vector_index?.vectors, sb.vector_index?.vectors],
  ];
  for (const [name, x, y] of figures) if (x !== y) out.push(`stats ${name}: ${x} vs ${y}`);
  diffCounters(sa.counters, sb.counters, out);
  const nb = new Map(b.nodes.map((n) => [n.id, n]));
  const na = new Map(a.nodes.map((n) => [n.id, n]));
  const nodeOut: string[] = [];
  for (const node of a.nodes) {
    const other = nb.get(node.id);
    if (!other) nodeOut.push(`node ${node.id} only in the faulty run (${show(node.content.slice(0, 60))})`);
    else diffNode(node, other, nodeOut);
  }
  for (const node of b.nodes) if (!na.has(node.id)) nodeOut.push(`node ${node.id} only in the twin (${show(node.content.slice(0, 60))})`);
  out.push(...nodeOut);
  for (const code of new Set([...Object.keys(a.codeHits), ...Object.keys(b.codeHits)])) {
    const [ha, hb] = [a.codeHits[code] ?? [], b.codeHits[code] ?? []];
    const same =
      ha.length === hb.length &&
      ha.every((h, i) => {
        const o = hb[i];
        return (
          o !== undefined &&
          o.node_id === h.node_id &&
          o.content === h.content &&
          show(o.source_message_ids) === show(h.source_message_ids) &&
          close(o.score, h.score)
        );
      });
    if (!same) out.push(`search ${code}: ${show(ha.map((h) => [h.node_id, h.score]))} vs ${show(hb.map((h) => [h.node_id, h.score]))}`);
  }
  for (const query of new Set([...Object.keys(a.reads), ...Object.keys(b.reads)])) {
    if (show(a.reads[query]) !== show(b.reads[query])) {
      out.push(`${query}: ${show(a.reads[query]?.map((r) => r.node_id))} vs ${show(b.reads[query]?.map((r) => r.node_id))}`);
    }
  }
  return out;
}

/** What an agent was sent, for the checks that need no twin. */
export interface Accounting {
  /** Message id → code word, for every message accepted since the agent's last deletion. */
  live: Map<string, string>;
  /** Message id → code word, for messages accepted before it (deleted with the agent). */
  dead: Map<string, string>;
  /** Remember requests accepted since the last deletion (each is one task, counted once). */
  remembers: number;
}

/**
 * One agent on its own: the stats agree with the nodes read, one vector per node, no failed task;
 * every live message is held by the nodes of exactly one remember (found exactly once, when
 * nothing was forgotten), no message of before the deletion or of anyone else; the keyword search
 * for each code word finds exactly the segments whose text contains it and that no later memory
 * superseded (docs/design.md §11: no duplicate, stale or missing index row); the remember counter equals the remembers accepted.
 */
export function checkNetwork(s: NetworkSnapshot, acc: Accounting): string[] {
  const out: string[] = [];
  const st = s.stats;
  if (s.nodes.length !== st.nodes.total) out.push(`stats count ${st.nodes.total} nodes, ${s.nodes.length} read (ids 1–${s.lastId})`);
  const segments = s.nodes.filter((n) => n.kind === "segment").length;
  if (segments !== st.nodes.segments) out.push(`stats count ${st.nodes.segments} segments, ${segments} read`);
  const vectors = st.vector_index?.vectors;
  if (vectors !== undefined && vectors !== null && vectors !== st.nodes.total) out.push(`${vectors} vectors for ${st.nodes.total} nodes`);
  if (st.queue.failed > 0) out.push(`${st.queue.failed} failed task(s)`);
  const remembers = st.counters.remembers ?? 0;
  if (remembers !== acc.remembers) out.push(`counter remembers ${remembers}, ${acc.remembers} remember requests accepted`);

  const forgot = (st.counters.nodes_deleted ?? 0) + (st.counters.nodes_evicted ?? 0) > 0;
  const compressed = (st.counters.nodes_compressed ?? 0) > 0;
  const tasksOf = new Map<string, Set<number | null>>();
  const holders = new Map<string, number[]>();
  /** Segments search can find: a superseded one (a conflict check judged a later one an update) it cannot. */
  const current = new Set(s.nodes.filter((n) => n.superseded_by === null).map((n) => n.id));
  for (const node of s.nodes) {
    for (const id of node.source_message_ids) {
      if (!acc.live.has(id))
        out.push(`node ${node.id} holds message ${id}, ${acc.dead.has(id) ? "deleted with the agent" : "never sent to this agent"}`);
      tasksOf.set(id, (tasksOf.get(id) ?? new Set()).add(node.source_task));
    }
    // Segments hold the text (an entity may be named after a code word; search returns segments).
    if (node.kind === "segment") for (const code of codesIn(node.content)) holders.set(code, [...(holders.get(code) ?? []), node.id]);
  }
  let missing = 0;
  for (const [id, code] of acc.live) {
    const tasks = tasksOf.get(id);
    if (tasks && tasks.size > 1) out.push(`message ${id} stored by ${tasks.size} remember tasks`);
    if (!tasks && !forgot) missing += 1;
    const nodes = holders.get(code) ?? [];
    if (nodes.length > 1) out.push(`message ${id}: its text is in ${nodes.length} nodes (${nodes.join(", ")})`);
    if (nodes.length === 0 && !forgot && !compressed) out.push(`message ${id}: its text is in no node`);
    const hits = (s.codeHits[code] ?? []).map((h) => h.node_id).sort((a, b) => a - b);
    if (show(hits) !== show(nodes.filter((n) => current.has(n)).sort((a, b) => a - b)))
      out.push(`search ${code} (${id}) finds nodes ${show(hits)}, its text is in ${show(nodes)}`);
  }
  if (missing > 0) out.push(`${missing} accepted message id(s) held by no node, and nothing was forgotten`);
  for (const [id, code] of acc.dead) {
    if ((holders.get(code) ?? []).length > 0 || (s.codeHits[code] ?? []).length > 0)
      out.push(`message ${id} survived the agent's deletion`);
  }
  return out;
}

/** The first LIST items and a count of the rest. */
export function listed(items: readonly string[]): string[] {
  return items.length <= LIST ? [...items] : [...items.slice(0, LIST), `… and ${items.length - LIST} more`];
}
