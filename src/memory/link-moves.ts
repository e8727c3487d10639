/**
 * Moving a node's links to another node (docs/design.md, "Memory operations"): an update by supersession (the new
 * memory takes over the old one's links to entities and its explicit links) and an entity merge (the
 * survivor takes over all of the absorbed entity's links). Each link from → X becomes to → X and each Y → from becomes Y → to, at its
 * current strength, written with the current task's epoch; links between the two nodes are dropped
 * (they would point at themselves). When `to` already has a link of the same key, the stronger
 * level stays; one `to` holds at least as strong is left as it stands, not rewritten (its
 * effective level is the same either way, and D1 counts every rewrite as rows written). Pure: the
 * caller reads the links as they stand and commits the operations.
 */
import type { NodeKind } from "../vocabulary/node-kinds";
import type { LinkKey, LinkState, MemoryNode, NewLink } from "../vocabulary/records";
import { EXPLICIT_LINK_RELATIONS, RELATION } from "../vocabulary/relations";
import { levelOf } from "./strength";
import type { WriteOp } from "./write-ops";

export interface MoveInput {
  from: number;
  to: number;
  /** The links of `from`, both directions, as they stand (LinkState: effective level, pinned flag). */
  fromLinks: readonly LinkState[];
  /** The links of `to`, both directions, as they stand. */
  toLinks: readonly LinkState[];
  clock: number;
  /** The current task's sequence: the epoch of every level written here. */
  epoch: number;
}

export interface LinkMove {
  /** Every link of `from` (each is deleted: moved or dropped). */
  removed: LinkKey[];
  /** The moved links to write, at their levels (a pinned link at strength 1: level = clock). */
  moved: NewLink[];
  /** Moved links `to` already held at least as strong: nothing to write. */
  kept: number;
}

const keyOf = (l: LinkKey) => `${l.source}|${l.target}|${l.relation}`;

/** A link's level as it stands, as a level that can be stored: strength at most 1. */
export function storableLevel(link: Pick<LinkState, "level" | "pinned">, clock: number): number {
  return link.pinned ? clock : Math.min(link.level, clock);
}

export function moveLinks(input: MoveInput): LinkMove {
  const { from, to, clock, epoch } = input;
  const existing = new Map(input.toLinks.map((l) => [keyOf(l), storableLevel(l, clock)]));
  const moved = new Map<string, NewLink>();
  const removed: LinkKey[] = [];
  let kept = 0;
  for (const link of input.fromLinks) {
    removed.push({ source: link.source, target: link.target, relation: link.relation });
    const source = link.source === from ? to : link.source;
    const target = link.target === from ? to : link.target;
    if (source === target) continue;
    const level = storableLevel(link, clock);
    const key = keyOf({ source, target, relation: link.relation });
    const held = existing.get(key);
    if (held !== undefined && held >= level) {
      kept += 1;
      continue;
    }
    const best = Math.max(level, moved.get(key)?.level ?? -Infinity);
    moved.set(key, { source, target, relation: link.relation, level: best, epoch, createdAt: link.createdAt });
  }
  return { removed, moved: [...moved.values()], kept };
}

/** The other end of each of `id`'s links: what a caller loads to give supersedeOps their kinds. */
export function farEnds(links: readonly LinkKey[], id: number): number[] {
  return [...new Set(links.map((l) => (l.source === id ? l.target : l.source)))];
}

const EXPLICIT: ReadonlySet<string> = new Set(EXPLICIT_LINK_RELATIONS);

/**
 * Whether an update takes a link of the old version over (DESIGN §11): its links to entities and its
 * explicit links do; 上文/下文, the episode's 包含/属于, its own 更正/被更正 history and 矛盾 marks
 * stay with the version they were said or judged of. A dangling end has no kind: the relation decides.
 */
export function takenOver(link: LinkKey, oldId: number, kindOf: (id: number) => NodeKind | undefined): boolean {
  const other = link.source === oldId ? link.target : link.source;
  return kindOf(other) === "entity" || EXPLICIT.has(link.relation);
}

export interface SupersedeInput extends Omit<MoveInput, "from" | "to"> {
  /** The old version as it stands. */
  old: MemoryNode;
  newId: number;
  now: number;
  linkInitialStrength: number;
  /** The kinds of the far ends of `fromLinks` (farEnds); a missing one is a dangling end. */
  kinds: ReadonlyMap<number, { kind: NodeKind }>;
}

/**
 * An update by supersession (docs/design.md, "Memory operations"): the new node takes over the old
 * one's links to entities and its explicit links (takenOver), a 更正 (corrects) link new → old at
 * strength 1 and a 被更正 (corrected_by) link old → new at link_initial_strength record the
 * correction, and the old node is marked superseded. The old node keeps the links of the
 * conversation it was said in and its history: a chain of corrections stays a chain instead of
 * piling every link on the newest version. A pin moves to the new version.
 */
export function supersedeOps(input: SupersedeInput): { ops: WriteOp[]; moved: number } {
  const { newId, clock, epoch, now, kinds } = input;
  const oldId = input.old.id;
  const fromLinks = input.fromLinks.filter((l) => takenOver(l, oldId, (id) => kinds.get(id)?.kind));
  const move = moveLinks({ ...input, fromLinks, from: oldId, to: newId });
  const correction: NewLink[] = [
    { source: newId, target: oldId, relation: RELATION.corrects, level: levelOf(1, clock), epoch, createdAt: now },
    {
      source: oldId,
      target: newId,
      relation: RELATION.correctedBy,
      level: levelOf(input.linkInitialStrength, clock),
      epoch,
      createdAt: now,
    },
  ];
  const ops: WriteOp[] = [];
  if (move.removed.length > 0) ops.push({ type: "deleteLinks", keys: move.removed });
  ops.push({ type: "setLinks", links: [...move.moved, ...correction] });
  // A pin moves to the new version (docs/design.md, "Pins"): history is forgotten like any node.
  ops.push({
    type: "patchNodes",
    ids: [oldId],
    fields: input.old.pinned ? { supersededBy: newId, pinned: false } : { supersededBy: newId },
  });
  if (input.old.pinned) ops.push({ type: "patchNodes", ids: [newId], fields: { pinned: true } });
  return { ops, moved: move.moved.length + move.kept };
}

/**
 * Reinforcement of a memory that was used (docs/design.md, "Memory operations"): each of its
 * outgoing links gains `step` in strength, capped at 1. Links already at 1 (pinned by the focus,
 * or full) are left as they are. Returns the links to set and the gain in importance.
 */
export function reinforceLinks(
  outgoing: readonly LinkState[],
  step: number,
  clock: number,
  epoch: number,
  strengthOf: (link: LinkState) => number,
): { links: NewLink[]; gain: number } {
  const links: NewLink[] = [];
  let gain = 0;
  for (const link of outgoing) {
    const before = strengthOf(link);
    if (link.pinned || before >= 1) continue;
    const after = Math.min(1, before + step);
    gain += after - before;
    links.push({
      source: link.source,
      target: link.target,
      relation: link.relation,
      level: levelOf(after, clock),
      epoch,
      createdAt: link.createdAt,
    });
  }
  return { links, gain };
}
