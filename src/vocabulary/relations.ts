/**
 * The relation vocabulary (关系名称). Links between consecutive segments of one submission are
 * always 下文/上文 (docs/design.md §4 step 5); links between a segment and a focus entity are named by the
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
  /** The entity was in focus when the segment was remembered but is not named in it. */
  context: "相关",
} as const;

export type RelationName = (typeof RELATION)[keyof typeof RELATION];

/** The names a model may choose for a segment ↔ focus-entity link. */
export const SEGMENT_ENTITY_RELATIONS: readonly RelationName[] = [RELATION.about, RELATION.context];

const ALIASES: ReadonlyMap<string, RelationName> = new Map(
  Object.entries(RELATION).flatMap(([alias, name]) => [
    [alias, name],
    [name, name],
  ]),
);

/** Maps a relation given by a client (Chinese name or English alias, any case) to its stored name. */
export function resolveRelation(input: string): string {
  const key = input.trim();
  return ALIASES.get(key) ?? ALIASES.get(key.toLowerCase()) ?? key;
}

export function isRelationName(value: string): value is RelationName {
  return (Object.values(RELATION) as string[]).includes(value);
}
