/**
 * Planning a remember (docs/design.md, "remember(messages)" steps 3–5): from the segments and what was
 * extracted from them to the exact nodes, links and focus changes to write, as write operations
 * (src/memory/write-ops.ts). Pure: the caller resolves existing entities and relation names, then
 * commits the operations as one unit; an interrupted task redoes the same ids and levels.
 */
import type { Extraction, SegmentDraft } from "../models/types";
import { PHRASE_MAX_CODE_POINTS } from "../models/types";
import { codePointLength, sliceCodePoints } from "../text/code-points";
import { newNode, type MemoryNode, type NewLink } from "../vocabulary/records";
import { RELATION, type RelationName } from "../vocabulary/relations";
import type { MessageRole } from "../vocabulary/roles";
import { entityKey } from "../language/entities/entity-key";
import { touchFocus, type FocusEntry } from "./focus-lru";
import { levelOf } from "./strength";
import type { NetworkOp } from "./write-ops";

export interface PlanMessage {
  role: MessageRole;
  content: string;
  name?: string | undefined;
  timestamp?: number | undefined;
  id?: string | undefined;
}

/** What the focus does while the segments are remembered, one step per segment. */
export interface FocusPlan {
  segmentIds: number[];
  /** Focus right after each segment's entities were mentioned. */
  focusAfter: FocusEntry[][];
  newEntities: FocusEntry[];
  initialFocus: FocusEntry[];
  finalFocus: FocusEntry[];
  /** Every node that was in focus at some point during the task. */
  everFocused: FocusEntry[];
  nextNodeId: number;
}

export interface RememberPlan {
  clock: number;
  nodes: MemoryNode[];
  links: NewLink[];
  /** Nodes in focus during the task but not at its end: their links restart at strength 1. */
  released: number[];
  focus: FocusEntry[];
  nextNodeId: number;
}

export interface FocusPlanInput {
  focus: readonly FocusEntry[];
  focusLimit: number;
  nextNodeId: number;
  extractions: readonly Extraction[];
  /** Entities that already have a node, by entityKey. */
  existingEntities: ReadonlyMap<string, { nodeId: number; name: string }>;
}

/** The keys of every entity mentioned, in first-mention order (what the caller must look up). */
export function mentionedEntityKeys(extractions: readonly Extraction[]): string[] {
  const keys = new Set<string>();
  for (const e of extractions)
    for (const name of e.entities) {
      const key = entityKey(name);
      if (key) keys.add(key);
    }
  return [...keys];
}

/**
 * Allocates node ids (each segment, then its new entities, in order) and replays the focus LRU
 * segment by segment, so each segment links to the focus as it stood when it was said.
 */
export function planFocus(input: FocusPlanInput): FocusPlan {
  let nextNodeId = input.nextNodeId;
  let focus: FocusEntry[] = [...input.focus];
  const known = new Map(input.existingEntities);
  const newEntities: FocusEntry[] = [];
  const segmentIds: number[] = [];
  const focusAfter: FocusEntry[][] = [];
  const ever = new Map(focus.map((f) => [f.nodeId, f]));
  for (const extraction of input.extractions) {
    segmentIds.push(nextNodeId++);
    const mentioned: FocusEntry[] = [];
    for (const name of extraction.entities) {
      const key = entityKey(name);
      if (!key || mentioned.some((m) => m.key === key)) continue;
      let entity = known.get(key);
      if (!entity) {
        entity = { nodeId: nextNodeId++, name };
        known.set(key, entity);
        newEntities.push({ nodeId: entity.nodeId, key, name });
      }
      mentioned.push({ nodeId: entity.nodeId, key, name: entity.name });
    }
    focus = touchFocus(focus, mentioned, input.focusLimit).focus;
    for (const f of focus) ever.set(f.nodeId, f);
    focusAfter.push(focus);
  }
  return {
    segmentIds,
    focusAfter,
    newEntities,
    initialFocus: [...input.focus],
    finalFocus: focus,
    everFocused: [...ever.values()],
    nextNodeId,
  };
}

/** The (segment, focus entity) pairs whose relation the model must name, in link order. */
export function relationPairs(plan: FocusPlan): { segmentIndex: number; entity: FocusEntry }[] {
  return plan.focusAfter.flatMap((focus, segmentIndex) => focus.map((entity) => ({ segmentIndex, entity })));
}

export interface RememberPlanInput {
  taskId: string;
  /** The task's sequence: the epoch of every link it writes (src/memory/strength.ts). */
  epoch: number;
  now: number;
  clock: number;
  linkInitialStrength: number;
  messages: readonly PlanMessage[];
  segments: readonly SegmentDraft[];
  extractions: readonly Extraction[];
  focusPlan: FocusPlan;
  /** One relation per relationPairs() entry, same order. */
  relations: readonly RelationName[];
}

export function planRemember(input: RememberPlanInput): RememberPlan {
  const { focusPlan, clock, epoch, now } = input;
  const finalIds = new Set(focusPlan.finalFocus.map((f) => f.nodeId));
  // A link to a focus entity starts at strength 1; the focus pins it while the entity stays there.
  const focusLevel = levelOf(1, clock);
  const nodes: MemoryNode[] = [];
  const links: NewLink[] = [];
  const pairs = relationPairs(focusPlan);
  if (pairs.length !== input.relations.length) throw new Error("one relation per (segment, focus) pair expected");

  input.segments.forEach((segment, i) => {
    const extraction = input.extractions[i];
    const id = focusPlan.segmentIds[i];
    if (!extraction || id === undefined) throw new Error(`segment ${i} has no extraction or id`);
    nodes.push(segmentNode(id, segment, extraction, input));
    const previous = focusPlan.segmentIds[i - 1];
    if (previous !== undefined) {
      const level = levelOf(input.linkInitialStrength, clock);
      links.push({ source: previous, target: id, relation: RELATION.next, level, epoch, createdAt: now });
      links.push({ source: id, target: previous, relation: RELATION.previous, level, epoch, createdAt: now });
    }
  });
  pairs.forEach(({ segmentIndex, entity }, i) => {
    const segmentId = focusPlan.segmentIds[segmentIndex];
    const relation = input.relations[i];
    if (segmentId === undefined || relation === undefined) return;
    links.push({ source: segmentId, target: entity.nodeId, relation, level: focusLevel, epoch, createdAt: now });
    links.push({ source: entity.nodeId, target: segmentId, relation, level: focusLevel, epoch, createdAt: now });
  });
  for (const entity of focusPlan.newEntities) nodes.push(entityNode(entity, input));

  return {
    clock,
    nodes,
    links,
    released: focusPlan.everFocused.filter((f) => !finalIds.has(f.nodeId)).map((f) => f.nodeId),
    focus: focusPlan.finalFocus,
    nextNodeId: focusPlan.nextNodeId,
  };
}

/** The plan as write operations: nodes, links, then the focus (which pins and releases links). */
export function rememberOps(plan: RememberPlan, epoch: number): NetworkOp[] {
  const ops: NetworkOp[] = [];
  if (plan.nodes.length > 0) ops.push({ type: "createNodes", nodes: plan.nodes });
  if (plan.links.length > 0) ops.push({ type: "createLinks", links: plan.links });
  ops.push({ type: "setFocus", focus: plan.focus, released: plan.released, clock: plan.clock, epoch });
  return ops;
}

function segmentNode(id: number, segment: SegmentDraft, extraction: Extraction, input: RememberPlanInput): MemoryNode {
  const sources = segment.messageIndexes.map((index) => ({ index, message: input.messages[index] }));
  const roles = new Set(sources.map((s) => s.message?.role));
  const speakers = new Set(sources.map((s) => s.message?.name ?? null));
  const times = sources.map((s) => s.message?.timestamp).filter((t): t is number => t !== undefined);
  const [role] = roles;
  const [speaker] = speakers;
  return newNode({
    id,
    kind: "segment",
    name: null,
    content: segment.text,
    originalLength: codePointLength(segment.text),
    phrase: sliceCodePoints(extraction.phrase, 0, PHRASE_MAX_CODE_POINTS),
    keywords: extraction.keywords,
    role: roles.size === 1 && role ? role : null,
    speaker: speakers.size === 1 && speaker ? speaker : null,
    sourceMessageIds: sources.map((s) => s.message?.id ?? `${input.taskId}#${s.index}`),
    sourceTaskId: input.taskId,
    messageTime: times.length > 0 ? Math.min(...times) : null,
    createdAt: input.now,
  });
}

function entityNode(entity: FocusEntry, input: RememberPlanInput): MemoryNode {
  return newNode({
    id: entity.nodeId,
    kind: "entity",
    name: entity.key,
    content: entity.name,
    originalLength: codePointLength(entity.name),
    phrase: sliceCodePoints(entity.name, 0, PHRASE_MAX_CODE_POINTS),
    keywords: [entity.name],
    role: null,
    speaker: null,
    sourceMessageIds: [],
    sourceTaskId: input.taskId,
    messageTime: null,
    createdAt: input.now,
  });
}
