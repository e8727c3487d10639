import { describe, expect, it } from "vitest";
import { farEnds, moveLinks, supersedeOps, takenOver } from "../../../src/memory/link-moves";
import { levelOf, PINNED_LEVEL } from "../../../src/memory/strength";
import type { NodeKind } from "../../../src/vocabulary/node-kinds";
import { newNode, type LinkKey, type LinkState, type NewLink } from "../../../src/vocabulary/records";
import { RELATION } from "../../../src/vocabulary/relations";
import type { WriteOp } from "../../../src/memory/write-ops";

const CLOCK = 40;
const OLD = 10;
const NEW = 20;

const link = (source: number, target: number, relation: string, level = 30, createdAt = 1): LinkState => ({
  source,
  target,
  relation,
  level,
  createdAt,
  pinned: level >= PINNED_LEVEL,
});

// Ends of the old version (node 10): entities 1 and 2, the segments said before (9) and after (11)
// it, its episode 30, the version it corrected (5), memories 40 (explicit links) and 41 (a
// contradiction); 98 and 99 were deleted (dangling ends: no kind).
const KINDS = new Map<number, { kind: NodeKind }>([
  [1, { kind: "entity" }],
  [2, { kind: "entity" }],
  [5, { kind: "segment" }],
  [9, { kind: "segment" }],
  [11, { kind: "segment" }],
  [30, { kind: "episode" }],
  [40, { kind: "memory" }],
  [41, { kind: "segment" }],
]);

const ENTITY_LINKS = [
  link(OLD, 1, RELATION.about, PINNED_LEVEL),
  link(1, OLD, RELATION.about, PINNED_LEVEL),
  link(OLD, 2, RELATION.context, 25),
  link(2, OLD, RELATION.context, 25),
];
const EXPLICIT_LINKS = [link(40, OLD, RELATION.because, 33), link(OLD, 40, RELATION.cites, 34), link(OLD, 98, RELATION.basedOn, 35)];
const STAYING = [
  link(9, OLD, RELATION.next),
  link(OLD, 9, RELATION.previous),
  link(OLD, 11, RELATION.next),
  link(11, OLD, RELATION.previous),
  link(30, OLD, RELATION.contains),
  link(OLD, 30, RELATION.partOf),
  link(OLD, 5, RELATION.corrects),
  link(5, OLD, RELATION.correctedBy),
  link(OLD, 41, RELATION.contradicts),
  link(41, OLD, RELATION.contradicts),
  link(OLD, 99, RELATION.next),
];
const FROM_LINKS = [...ENTITY_LINKS, ...EXPLICIT_LINKS, ...STAYING];

const keys = (links: readonly LinkKey[]) => links.map((l) => `${l.source}|${l.target}|${l.relation}`).sort();

function opsOf(ops: readonly WriteOp[]) {
  const deleted = ops.flatMap((op) => (op.type === "deleteLinks" ? op.keys : []));
  const set = ops.flatMap((op): NewLink[] => (op.type === "setLinks" ? op.links : []));
  return { deleted, set, supersede: ops.filter((op) => op.type === "patchNodes") };
}

function supersede(fromLinks: readonly LinkState[], toLinks: readonly LinkState[] = []) {
  return supersedeOps({
    old: newNode({
      id: OLD,
      kind: "segment",
      name: null,
      content: "the old version",
      originalLength: 15,
      phrase: "",
      keywords: [],
      role: "user",
      speaker: null,
      sourceMessageIds: [],
      sourceTaskId: null,
      messageTime: null,
      createdAt: 0,
    }),
    newId: NEW,
    fromLinks,
    toLinks,
    kinds: KINDS,
    clock: CLOCK,
    epoch: 7,
    now: 1000,
    linkInitialStrength: 0.6,
  });
}

describe("an update takes over the old version's links to entities and its explicit links (DESIGN §11)", () => {
  it("moves the entity and explicit links, leaves 上文/下文, the episode, the history and contradictions with the old version", () => {
    const { ops, moved } = supersede(FROM_LINKS);
    const { deleted, set, supersede: marks } = opsOf(ops);
    expect(keys(deleted)).toEqual(keys([...ENTITY_LINKS, ...EXPLICIT_LINKS]));
    const movedKeys = [
      { source: NEW, target: 1, relation: RELATION.about },
      { source: 1, target: NEW, relation: RELATION.about },
      { source: NEW, target: 2, relation: RELATION.context },
      { source: 2, target: NEW, relation: RELATION.context },
      { source: 40, target: NEW, relation: RELATION.because },
      { source: NEW, target: 40, relation: RELATION.cites },
      { source: NEW, target: 98, relation: RELATION.basedOn },
    ];
    const correction = [
      { source: NEW, target: OLD, relation: RELATION.corrects },
      { source: OLD, target: NEW, relation: RELATION.correctedBy },
    ];
    expect(keys(set)).toEqual(keys([...movedKeys, ...correction]));
    expect(moved).toBe(movedKeys.length);
    // Nothing that stays is touched: no staying key is deleted or rewritten.
    const touched = new Set(keys([...deleted, ...set]));
    for (const key of keys(STAYING)) expect(touched.has(key), key).toBe(false);
    expect(marks).toEqual([{ type: "patchNodes", ids: [OLD], fields: { supersededBy: NEW } }]);
  });

  it("moves each link at its level as it stands (a focus-pinned one at strength 1), with its creation time", () => {
    const { set } = opsOf(supersede(FROM_LINKS).ops);
    const find = (source: number, target: number) => set.find((l) => l.source === source && l.target === target);
    expect(find(NEW, 1)).toMatchObject({ level: CLOCK, epoch: 7, createdAt: 1 });
    expect(find(NEW, 2)).toMatchObject({ level: 25, epoch: 7 });
    expect(find(40, NEW)).toMatchObject({ level: 33, epoch: 7 });
    expect(find(NEW, OLD)).toMatchObject({ relation: RELATION.corrects, level: levelOf(1, CLOCK), createdAt: 1000 });
    expect(find(OLD, NEW)).toMatchObject({ relation: RELATION.correctedBy, level: levelOf(0.6, CLOCK), createdAt: 1000 });
  });

  it("writes a moved link only where it is stronger than the new version's own; drops links between the two versions", () => {
    const fromLinks = [
      link(OLD, 1, RELATION.about, 20),
      link(OLD, 2, RELATION.context, 25),
      link(OLD, NEW, RELATION.cites, 30),
      link(NEW, OLD, RELATION.next, 30),
    ];
    const toLinks = [link(NEW, 1, RELATION.about, 28), link(NEW, 2, RELATION.context, 10)];
    const { ops, moved } = supersede(fromLinks, toLinks);
    const { deleted, set } = opsOf(ops);
    expect(keys(deleted)).toEqual(keys(fromLinks.slice(0, 3)));
    // NEW → 1 already holds 28 ≥ 20: left as it stands, not rewritten (a row written for nothing).
    expect(set.find((l) => l.source === NEW && l.target === 1)).toBeUndefined();
    // NEW → 2 held 10 < 25: the moved level wins.
    expect(set.find((l) => l.source === NEW && l.target === 2)).toMatchObject({ level: 25, epoch: 7 });
    // The explicit link between the two versions would point at itself: dropped, not moved.
    expect(set.some((l) => l.source === l.target)).toBe(false);
    // links_moved counts what the new version now holds of the old one's: both entity links.
    expect(moved).toBe(2);
  });

  it("a chain of corrections stays a chain: the second update moves only what the first version held of entities and explicit links", () => {
    // Version 10 corrected 5 earlier; now 20 corrects 10. 10's 更正 → 5 stays, so history reads 20 → 10 → 5.
    const { set } = opsOf(
      supersede([link(OLD, 5, RELATION.corrects), link(5, OLD, RELATION.correctedBy), link(OLD, 1, RELATION.about)]).ops,
    );
    expect(set.some((l) => l.target === 5 || l.source === 5)).toBe(false);
  });

  it("takenOver decides by the far end's kind, then by the relation; farEnds lists each far end once", () => {
    const kindOf = (id: number) => KINDS.get(id)?.kind;
    expect(takenOver({ source: OLD, target: 1, relation: RELATION.next }, OLD, kindOf)).toBe(true);
    expect(takenOver({ source: 40, target: OLD, relation: RELATION.context }, OLD, kindOf)).toBe(true);
    expect(takenOver({ source: OLD, target: 41, relation: RELATION.contradicts }, OLD, kindOf)).toBe(false);
    expect(takenOver({ source: OLD, target: 99, relation: RELATION.about }, OLD, kindOf)).toBe(false);
    expect(farEnds(FROM_LINKS, OLD).sort((a, b) => a - b)).toEqual([1, 2, 5, 9, 11, 30, 40, 41, 98, 99]);
  });
});

describe("an entity merge moves every link (moveLinks)", () => {
  it("moves links of every relation, both directions, and drops the ones between the two entities", () => {
    const fromLinks = [...STAYING, link(OLD, NEW, RELATION.context), link(NEW, OLD, RELATION.context)];
    const move = moveLinks({ from: OLD, to: NEW, fromLinks, toLinks: [link(9, NEW, RELATION.next, 40)], clock: CLOCK, epoch: 7 });
    expect(move.removed).toHaveLength(fromLinks.length);
    // 9 → NEW 下文 was already there at strength 1: kept, not rewritten.
    expect(move.kept).toBe(1);
    expect(move.moved).toHaveLength(STAYING.length - 1);
    expect(move.moved.every((l) => l.source === NEW || l.target === NEW)).toBe(true);
  });
});
