/**
 * Conflicts on write (docs/design.md, "Memory operations"; the rule that a change
 * over time is not a contradiction). After a remember or an explicit memory is committed, each new
 * memory is compared with the agent's memories that share an entity with it: per entity the
 * CANDIDATES_PER_ENTITY most recent ones remembered before it (earlier memories of the same
 * submission included). The small model classifies each pair (SmallModel.judgeConflicts):
 *
 * - unrelated, same: nothing changes (copies are independent);
 * - update: the later supersedes the earlier, exactly as PATCH does (src/memory/link-moves.ts);
 * - contradiction: a 矛盾 link both ways at link_initial_strength; both are kept, and every answer
 *   that shows one marks the conflict (src/operations/shared/conflict-marks.ts).
 *
 * The check is a phase of its task with its own checkpoint state: the verdicts are judged once and
 * saved, then each supersession is one commit, and the contradictions one more, so a task redone
 * after a crash neither judges nor applies anything twice.
 */
import { z } from "zod";
import { farEnds, supersedeOps } from "../../memory/link-moves";
import { memoryText } from "../../memory/format";
import { levelOf } from "../../memory/strength";
import type { WriteOp } from "../../memory/write-ops";
import type { ConflictPair, ConflictVerdict } from "../../models/types";
import { contentTerms } from "../../language/tokens/tokenize";
import type { MemoryNode, NewLink } from "../../vocabulary/records";
import { RELATION } from "../../vocabulary/relations";
import { networkReader, type NetworkReader } from "../../engine/network-reader";
import type { AgentModels, AgentStores, TaskProgress, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { NOTHING_FORESEEN, type Foreseen } from "../../engine/verdicts-ahead";

/** What the conflict check uses of the agent's runtime. */
export type ConflictCheckRuntime = AgentStores &
  TaskProgress &
  WritePath &
  Pick<AgentModels, "model" | "sharesModelCalls" | "verdictsAhead">;

/** Earlier memories compared per shared entity: the most recent ones. */
export const CANDIDATES_PER_ENTITY = 5;
/** Pairs judged per task at most (the most similar first): a bound on model calls. */
export const MAX_CONFLICT_PAIRS = 200;

const Id = z.number().int();

export const ConflictSummarySchema = z.object({
  /** Pairs judged. */
  checked: z.number().int(),
  same: z.number().int(),
  /** Earlier memories superseded by a newer one. */
  updates: z.number().int(),
  /** Pairs linked as contradicting each other. */
  contradictions: z.number().int(),
});
export type ConflictSummary = z.infer<typeof ConflictSummarySchema>;

const ActionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("supersede"), old: Id, new: Id }),
  z.object({ type: z.literal("contradict"), pairs: z.array(z.tuple([Id, Id])) }),
]);
type Action = z.infer<typeof ActionSchema>;

export const ConflictStateSchema = z.discriminatedUnion("phase", [
  /** The new memories to check. */
  z.object({ phase: z.literal("pending"), ids: z.array(Id) }),
  /** Judged: the actions, applied up to `next`. */
  z.object({ phase: z.literal("judged"), actions: z.array(ActionSchema), next: Id, summary: ConflictSummarySchema }),
  z.object({ phase: z.literal("done"), summary: ConflictSummarySchema }),
]);
export type ConflictState = z.infer<typeof ConflictStateSchema>;

export const isMemory = (n: MemoryNode | undefined): n is MemoryNode =>
  n !== undefined && (n.kind === "segment" || n.kind === "memory") && n.supersededBy === null;

/**
 * Runs the check from `state` to the end. `wrap(state)` is the task's whole checkpoint with this
 * state in it: saved with every step.
 */
export async function runConflictCheck(
  rt: ConflictCheckRuntime,
  task: { id: string; seq: number },
  state: ConflictState,
  wrap: (state: ConflictState) => unknown,
  foresee?: ForeseePairs,
): Promise<ConflictSummary> {
  let current = state;
  if (current.phase === "pending") {
    current = { phase: "judged", ...(await judge(rt, current.ids, foresee)), next: 0 };
    const saved = current;
    rt.storage.transactionSync(() => rt.queue.saveCheckpoint(task.id, wrap(saved)));
  }
  if (current.phase === "judged") {
    for (let i = current.next; i < current.actions.length; i++) {
      const action = current.actions[i];
      const after: ConflictState = { ...current, next: i + 1 };
      const ops = action ? await actionOps(rt, task.seq, action) : [];
      if (ops.length > 0) await commit(rt, task.id, ops, { checkpoint: wrap(after) });
      else rt.storage.transactionSync(() => rt.queue.saveCheckpoint(task.id, wrap(after)));
      current = after;
    }
    const done: ConflictState = { phase: "done", summary: current.summary };
    rt.storage.transactionSync(() => rt.queue.saveCheckpoint(task.id, wrap(done)));
    return current.summary;
  }
  return current.summary;
}

/**
 * The pairs the tasks queued behind this one will probably ask about (conflict-foresight.ts): with
 * a model that shares calls, their verdicts are asked in the same call (src/engine/verdicts-ahead.ts).
 */
export type ForeseePairs = (reader: NetworkReader, clock: number) => Promise<Foreseen>;

/** The pairs to judge, the model's verdicts, and what they call for. */
async function judge(
  rt: ConflictCheckRuntime,
  ids: readonly number[],
  foresee?: ForeseePairs,
): Promise<{ actions: Action[]; summary: ConflictSummary }> {
  const none = { actions: [], summary: { checked: 0, same: 0, updates: 0, contradictions: 0 } };
  const repos = rt.existingRepos();
  if (!repos || ids.length === 0) return none;
  const reader = await networkReader(rt, repos);
  const clock = rt.meta.clock();
  const pairs = await candidatePairs(reader, ids, clock);
  if (pairs.length === 0) return none;
  // Verdicts stay in the task's place in the order; only the model call is shared and asked ahead.
  let verdicts: ConflictVerdict[];
  if (rt.sharesModelCalls()) {
    const judged = await rt.verdictsAhead.judge(
      rt.model,
      pairs.map((p) => p.pair),
      () => (foresee ? foresee(reader, clock) : Promise.resolve(NOTHING_FORESEEN)),
    );
    verdicts = judged.verdicts;
  } else verdicts = await rt.model.judgeConflicts(pairs.map((p) => p.pair));
  const supersede: Action[] = [];
  const contradict: [number, number][] = [];
  let same = 0;
  pairs.forEach((p, i) => {
    const verdict = verdicts[i];
    if (verdict === "same") same += 1;
    else if (verdict === "update") supersede.push({ type: "supersede", old: p.earlier, new: p.later });
    else if (verdict === "contradiction") contradict.push([p.earlier, p.later]);
  });
  // Oldest corrections first, so a chain of updates (Paris → Berlin → Munich) ends at the newest.
  supersede.sort((a, b) => (a.type === "supersede" && b.type === "supersede" ? a.new - b.new || a.old - b.old : 0));
  const actions: Action[] = [...supersede, ...(contradict.length > 0 ? [{ type: "contradict" as const, pairs: contradict }] : [])];
  return { actions, summary: { checked: pairs.length, same, updates: supersede.length, contradictions: contradict.length } };
}

/** Every node about each of `entityIds` (an about link, either way), newest first. */
export async function nodesAbout(reader: NetworkReader, entityIds: ReadonlySet<number>, clock: number): Promise<Map<number, number[]>> {
  const about = new Map<number, number[]>();
  for (const e of await reader.expand([...entityIds], [RELATION.about], clock)) {
    const [entity, other] = entityIds.has(e.source) && !entityIds.has(e.target) ? [e.source, e.target] : [e.target, e.source];
    if (!entityIds.has(entity) || entityIds.has(other)) continue;
    const list = about.get(entity) ?? [];
    list.push(other);
    about.set(entity, list);
  }
  for (const [entity, list] of about)
    about.set(
      entity,
      [...new Set(list)].sort((a, b) => b - a),
    );
  return about;
}

interface CandidatePair {
  earlier: number;
  later: number;
  pair: ConflictPair;
}

/** Each new memory with the most recent earlier memories of each entity it is about. */
async function candidatePairs(reader: NetworkReader, ids: readonly number[], clock: number): Promise<CandidatePair[]> {
  const fresh = [...(await reader.load(ids)).values()].filter(isMemory);
  if (fresh.length === 0) return [];
  const aboutEdges = await reader.expand(
    fresh.map((n) => n.id),
    [RELATION.about],
    clock,
  );
  const freshIds = new Set(fresh.map((n) => n.id));
  const entitiesOf = new Map<number, Set<number>>();
  for (const e of aboutEdges) {
    const [memory, other] = freshIds.has(e.source) ? [e.source, e.target] : [e.target, e.source];
    if (!freshIds.has(memory) || freshIds.has(other)) continue;
    const set = entitiesOf.get(memory) ?? new Set<number>();
    set.add(other);
    entitiesOf.set(memory, set);
  }
  const entityIds = [...new Set([...entitiesOf.values()].flatMap((s) => [...s]))];
  const entities = await reader.load(entityIds);
  const about = await nodesAbout(reader, new Set(entities.keys()), clock);
  // Load the few that can be candidates (a memory may be superseded or not a memory: some slack).
  const wanted = new Set<number>();
  for (const node of fresh)
    for (const entity of entitiesOf.get(node.id) ?? [])
      for (const id of (about.get(entity) ?? []).filter((id) => id < node.id).slice(0, 3 * CANDIDATES_PER_ENTITY)) wanted.add(id);
  const candidates = await reader.load([...wanted]);
  for (const node of fresh) candidates.set(node.id, node);
  const byKey = new Map<string, { earlier: MemoryNode; later: MemoryNode; entities: Set<string> }>();
  for (const later of fresh) {
    for (const entity of entitiesOf.get(later.id) ?? []) {
      const name = entities.get(entity)?.content;
      if (name === undefined || entities.get(entity)?.kind !== "entity") continue;
      let taken = 0;
      for (const id of about.get(entity) ?? []) {
        if (taken >= CANDIDATES_PER_ENTITY) break;
        const earlier = candidates.get(id);
        if (id >= later.id || !isMemory(earlier)) continue;
        taken += 1;
        const key = `${id}|${later.id}`;
        const found = byKey.get(key) ?? { earlier, later, entities: new Set<string>() };
        found.entities.add(name);
        byKey.set(key, found);
      }
    }
  }
  const found = [...byKey.values()];
  const inOrder = (x: { earlier: MemoryNode; later: MemoryNode }, y: { earlier: MemoryNode; later: MemoryNode }) =>
    x.later.id - y.later.id || x.earlier.id - y.earlier.id;
  // Within the bound every pair is judged: similarity only chooses which when there are too many
  // (tokenizing every candidate was a large share of a remember's time, measured).
  const chosen = found.length <= MAX_CONFLICT_PAIRS ? found : mostSimilar(found);
  return chosen.sort(inOrder).map(({ earlier, later, entities }) => ({
    earlier: earlier.id,
    later: later.id,
    pair: { earlier: memoryText(earlier), later: memoryText(later), entities: [...entities].sort() },
  }));
}

/** The MAX_CONFLICT_PAIRS pairs whose memories share the most content terms (Jaccard). */
function mostSimilar<P extends { earlier: MemoryNode; later: MemoryNode }>(pairs: readonly P[]): P[] {
  const terms = new Map<number, Set<string>>();
  const termsOf = (n: MemoryNode) => {
    let set = terms.get(n.id);
    if (!set) terms.set(n.id, (set = new Set(contentTerms(n.content))));
    return set;
  };
  return pairs
    .map((p) => {
      const a = termsOf(p.earlier);
      const b = termsOf(p.later);
      const shared = [...a].filter((t) => b.has(t)).length;
      return { p, similarity: shared / Math.max(1, a.size + b.size - shared) };
    })
    .sort((x, y) => y.similarity - x.similarity || x.p.later.id - y.p.later.id || x.p.earlier.id - y.p.earlier.id)
    .slice(0, MAX_CONFLICT_PAIRS)
    .map(({ p }) => p);
}

/** The operations of one action against the network as it stands now (empty when moot). */
async function actionOps(rt: ConflictCheckRuntime, epoch: number, action: Action): Promise<WriteOp[]> {
  const repos = await rt.repos();
  const reader = await networkReader(rt, repos);
  const params = rt.meta.params();
  const clock = rt.meta.clock();
  const now = rt.now();
  if (action.type === "supersede") {
    const nodes = await reader.load([action.old, action.new]);
    const old = nodes.get(action.old);
    // Either was forgotten, or already superseded by an earlier action: nothing to do.
    if (!isMemory(old) || !isMemory(nodes.get(action.new))) return [];
    const [fromLinks, toLinks] = await Promise.all([reader.linksOf(action.old), reader.linksOf(action.new)]);
    const { ops } = supersedeOps({
      old,
      newId: action.new,
      fromLinks,
      toLinks,
      kinds: await reader.load(farEnds(fromLinks, action.old)),
      clock,
      epoch,
      now,
      linkInitialStrength: params.link_initial_strength,
    });
    return [...ops, { type: "count", counters: { conflicts_updates: 1 } }];
  }
  const nodes = await reader.load(action.pairs.flat());
  const level = levelOf(params.link_initial_strength, clock);
  const links: NewLink[] = action.pairs.flatMap(([a, b]) =>
    isMemory(nodes.get(a)) && isMemory(nodes.get(b))
      ? [
          { source: a, target: b, relation: RELATION.contradicts, level, epoch, createdAt: now },
          { source: b, target: a, relation: RELATION.contradicts, level, epoch, createdAt: now },
        ]
      : [],
  );
  if (links.length === 0) return [];
  return [
    { type: "createLinks", links },
    { type: "count", counters: { conflicts_contradictions: links.length / 2 } },
  ];
}
