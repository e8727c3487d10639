/**
 * Entity resolution on write (docs/design.md, "Memory operations"): entity nodes are keyed by their normalised name
 * (src/language/entities/entity-key.ts: case, width, quotes, possessives), and an English name also meets the
 * entity stored under its singular or plural ("Photos" finds "photo"). A mention that reaches an
 * entity through such a variant is rewritten to that entity's name before the focus is planned, and
 * its own key is recorded as an alias of the entity, so the next mention finds it directly. Two
 * variants of one new name in the same remember become one entity.
 *
 * A new name whose initialism names an existing entity ("JavaScript" when the agent knows "JS",
 * "New York City" and "NYC") is a candidate pair, and the small model judges it
 * (SmallModel.sameEntities: the local rule accepts initialisms; Workers AI decides with world
 * knowledge and the text around the mention); a pair judged the same is resolved like a variant.
 * Only initialisms make candidates: an acronym mentioned after its long form ("JS" after
 * "JavaScript"), nicknames and translations are not found here (a manual merge joins them).
 */
import type { FocusPlan } from "../../memory/remember-plan";
import { mentionedEntityKeys } from "../../memory/remember-plan";
import { initialismsOf } from "../../language/entities/initialisms";
import type { Extraction, SmallModel } from "../../models/types";
import { entityKey, entityKeyVariants } from "../../language/entities/entity-key";
import type { EntityAlias } from "../../vocabulary/records";
import type { NetworkReader } from "../../engine/network-reader";

export interface ResolvedEntities {
  /** The extractions with variant names rewritten to the entity they meet. */
  extractions: Extraction[];
  /** Existing entities by key (what planFocus looks up). */
  existing: Map<string, { nodeId: number; name: string }>;
  /** The aliases to record, once the plan has allocated the ids of new entities. */
  aliases(plan: FocusPlan): EntityAlias[];
  /**
   * The name extraction `index` used for the entity now called `name` (its own words, for naming
   * the relation: "JavaScript bundles…" is about JS because it says JavaScript).
   */
  spokenName(index: number, name: string): string;
}

/** The model that judges candidate pairs, and the text of each extraction (the mention's context). */
export interface JudgedBy {
  model: Pick<SmallModel, "sameEntities">;
  texts: readonly string[];
}

export async function resolveEntities(
  reader: NetworkReader,
  extractions: readonly Extraction[],
  judge?: JudgedBy,
): Promise<ResolvedEntities> {
  const keys = mentionedEntityKeys(extractions);
  const variants = new Map(keys.map((key) => [key, entityKeyVariants(key)]));
  const displayNames = new Map<string, { name: string; context: string }>();
  extractions.forEach((e, i) => {
    for (const name of e.entities)
      if (!displayNames.has(entityKey(name))) displayNames.set(entityKey(name), { name, context: judge?.texts[i] ?? "" });
  });
  const initialisms = new Map(
    keys.map((key) => [
      key,
      initialismsOf(displayNames.get(key)?.name ?? key)
        .map(entityKey)
        .filter((k) => k !== "" && k !== key),
    ]),
  );
  const found = await reader.findEntities([
    ...new Set([...keys, ...[...variants.values()].flat(), ...(judge ? [...initialisms.values()].flat() : [])]),
  ]);
  /** key → the key it is stored under, and the name written for it. */
  const canonical = new Map<string, { key: string; name: string }>();
  const displayOf = new Map<string, string>();
  for (const e of extractions) for (const name of e.entities) if (!displayOf.has(entityKey(name))) displayOf.set(entityKey(name), name);
  const pending: { key: string; name: string; target: string }[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    const own = variants.get(key) ?? [];
    // An existing entity under a variant, else a variant mentioned earlier in this same write.
    const other = found.has(key) ? undefined : (own.find((v) => found.has(v)) ?? own.find((v) => seen.has(v)));
    seen.add(key);
    if (other === undefined) continue;
    const target = canonical.get(other)?.key ?? other;
    const name = found.get(target)?.name ?? displayOf.get(target) ?? target;
    canonical.set(key, { key: target, name });
    pending.push({ key, name: displayOf.get(key) ?? key, target });
  }
  // New names whose initialism is a known entity: the model judges each pair.
  if (judge) {
    const candidates = keys.flatMap((key) => {
      if (found.has(key) || canonical.has(key)) return [];
      const known = (initialisms.get(key) ?? []).find((k) => found.has(k));
      const mention = displayNames.get(key);
      const entity = known === undefined ? undefined : found.get(known);
      return known === undefined || !entity || !mention
        ? []
        : [{ key, known, pair: { known: entity.name, mentioned: mention.name, context: mention.context } }];
    });
    const same = candidates.length > 0 ? await judge.model.sameEntities(candidates.map((c) => c.pair)) : [];
    candidates.forEach((c, i) => {
      if (same[i] !== true) return;
      const name = found.get(c.known)?.name ?? c.known;
      canonical.set(c.key, { key: c.known, name });
      pending.push({ key: c.key, name: c.pair.mentioned, target: c.known });
    });
  }
  const rewritten = extractions.map((e) => ({
    ...e,
    entities: e.entities.map((name) => canonical.get(entityKey(name))?.name ?? name),
  }));
  const spoken = extractions.map((e, i) => {
    const names = new Map<string, string>();
    e.entities.forEach((name, j) => {
      const now = rewritten[i]?.entities[j];
      if (now !== undefined && now !== name && !names.has(now)) names.set(now, name);
    });
    return names;
  });
  return {
    extractions: rewritten,
    existing: found,
    spokenName: (index, name) => spoken[index]?.get(name) ?? name,
    aliases: (plan) => {
      const ids = new Map([...found].map(([key, e]) => [key, e.nodeId]));
      for (const e of plan.newEntities) ids.set(e.key, e.nodeId);
      return pending.flatMap((p) => {
        const nodeId = ids.get(p.target);
        return nodeId === undefined ? [] : [{ key: p.key, name: p.name, nodeId }];
      });
    },
  };
}
