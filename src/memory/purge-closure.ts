/**
 * What a purge takes beyond the memories it was asked for (docs/design.md, "Purge"): the names that
 * only they spoke. Pure: src/operations/shared/purge.ts reads the network and commits.
 *
 * - An entity is named by a memory that links to it by 关于 (about: the memory mentions it; 相关
 *   only says it was in focus). An entity that a purged memory named goes with the purge unless
 *   something else names it: a memory that stays, or one forgotten earlier (a dangling 关于 link:
 *   a forgotten memory may still leave a trace of what it was about).
 * - An alias of an entity that stays goes when no memory that stays and names the entity holds the
 *   alias's words any more (an alias is the name one memory used; a purge of that memory takes it).
 */
import { normalizeText } from "../text/normalize";
import type { EntityAlias, LinkKey } from "../vocabulary/records";
import { RELATION } from "../vocabulary/relations";

export interface EntityEvidence {
  /** Entities linked by 关于 to a purged memory. */
  candidates: readonly number[];
  /** The memories (and episodes) being purged. */
  purged: ReadonlySet<number>;
  /** Every link with an end among the candidates (any relation: only 关于 counts). */
  links: readonly LinkKey[];
  /** The existing nodes among the links' other ends that are entities (an entity names nothing). */
  entities: ReadonlySet<number>;
}

/** The candidates that nothing but the purged memories names. */
export function entitiesToPurge(evidence: EntityEvidence): number[] {
  const named = new Set<number>();
  const candidates = new Set(evidence.candidates);
  for (const link of evidence.links) {
    if (link.relation !== RELATION.about) continue;
    for (const [entity, other] of [
      [link.source, link.target],
      [link.target, link.source],
    ] as const) {
      if (!candidates.has(entity) || other === entity) continue;
      if (!evidence.purged.has(other) && !evidence.entities.has(other)) named.add(entity);
    }
  }
  return evidence.candidates.filter((id) => !named.has(id));
}

/**
 * The aliases (of entities that stay) that no remaining mention holds: `mentions` maps an entity
 * to the texts of the memories that stay and name it.
 */
export function unmentionedAliases(aliases: readonly EntityAlias[], mentions: ReadonlyMap<number, readonly string[]>): string[] {
  const folded = new Map<number, string[]>();
  const textsOf = (id: number): string[] => {
    let texts = folded.get(id);
    if (!texts) {
      texts = (mentions.get(id) ?? []).map(normalizeText);
      folded.set(id, texts);
    }
    return texts;
  };
  return aliases
    .filter((alias) => {
      const name = normalizeText(alias.name);
      if (name === "") return true;
      const word = wordPattern(name);
      return !textsOf(alias.nodeId).some((text) => word.test(text));
    })
    .map((alias) => alias.key);
}

/** Scripts written without spaces: a name in them needs no boundary ("用户" in "用户系统"). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** `name` as a word of a text: not inside a longer word ("lantern" is not in "lanterns"). */
function wordPattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const before = UNSPACED.test(name.at(0) ?? "") ? "" : "(?<![\\p{L}\\p{N}])";
  const after = UNSPACED.test(name.at(-1) ?? "") ? "" : "(?![\\p{L}\\p{N}])";
  return new RegExp(`${before}${escaped}${after}`, "u");
}
