/**
 * The relation vocabulary (关系名称). Links between consecutive segments of one submission are
 * always 下文/上文 (docs/design.md, "remember(messages)" step 5); links between a segment and a focus entity are named by the
 * small model from SEGMENT_ENTITY_RELATIONS. Relation filters in recall accept either the stored
 * Chinese name or its English alias.
 */
export const RELATION = {
  /** A → B: B follows A in the same submission. */
  next: "下文",
  /** B → A: A precedes B in the same submission. */
  previous: "上文",
  /** The segment mentions the entity itself. */
  about: "关于",
  /** The entity was in focus when the segment was remembered but is not named in it; also an explicit "related". */
  context: "相关",
  /** new → old: the new memory corrects the old one, which it supersedes (docs/design.md, "Memory operations"). */
  corrects: "更正",
  /** old → new: the old memory was corrected by the new one (it fades as history). */
  correctedBy: "被更正",
  /** Both ways between two memories that cannot both hold (a contradiction, kept and marked). */
  contradicts: "矛盾",
  /** episode → segment: the episode contains the segment (docs/design.md, "Context for prompts"). */
  contains: "包含",
  /** segment → episode: the segment is part of the episode. */
  partOf: "属于",
  /** Explicit links between memories (docs/design.md, "Memory operations", link_memories). */
  because: "因为",
  therefore: "所以",
  causes: "导致",
  cites: "引用",
  basedOn: "基于",
} as const;

export type RelationName = (typeof RELATION)[keyof typeof RELATION];

/** The names a model may choose for a segment ↔ focus-entity link. */
export const SEGMENT_ENTITY_RELATIONS: readonly RelationName[] = [RELATION.about, RELATION.context];

/** The relations a client may give an explicit link (in Chinese or by English alias). */
export const EXPLICIT_LINK_RELATIONS: readonly RelationName[] = [
  RELATION.because,
  RELATION.therefore,
  RELATION.causes,
  RELATION.cites,
  RELATION.basedOn,
  RELATION.context,
];

/** English aliases besides the keys of RELATION (related, based_on, corrected_by…). */
const EXTRA_ALIASES: Readonly<Record<string, RelationName>> = {
  related: RELATION.context,
  based_on: RELATION.basedOn,
  corrected_by: RELATION.correctedBy,
  part_of: RELATION.partOf,
};

const ALIASES: ReadonlyMap<string, RelationName> = new Map([
  ...Object.entries(RELATION).flatMap(([alias, name]): [string, RelationName][] => [
    [alias, name],
    [alias.toLowerCase(), name],
    [name, name],
  ]),
  ...Object.entries(EXTRA_ALIASES),
]);

/** Maps a relation given by a client (Chinese name or English alias, any case) to its stored name. */
export function resolveRelation(input: string): string {
  const key = input.trim();
  return ALIASES.get(key) ?? ALIASES.get(key.toLowerCase()) ?? key;
}
