/**
 * Entity resolution on write (docs/design.md §11): entity nodes are keyed by their normalised name
 * (src/text/entity-key.ts: case, width, quotes, possessives), and an English name also meets the
 * entity stored under its singular or plural ("Photos" finds "photo"). A mention that reaches an
 * entity through such a variant is rewritten to that entity's name before the focus is planned, and
 * its own key is recorded as an alias of the entity, so the next mention finds it directly. Two
 * variants of one new name in the same remember become one entity.
 */
import type { FocusPlan } from "../memory/remember-plan";
import { mentionedEntityKeys } from "../memory/remember-plan";
import type { Extraction } from "../models/types";
import { entityKey, entityKeyVariants } from "../text/entity-key";
import type { EntityAlias } from "../vocabulary/records";
import type { NetworkReader } from "./network-reader";

export interface ResolvedEntities {
  /** The extractions with variant names rewritten to the entity they meet. */
  extractions: Extraction[];
  /** Existing entities by key (what planFocus looks up). */
  existing: Map<string, { nodeId: number; name: string }>;
  /** The aliases to record, once the plan has allocated the ids of new entities. */
  aliases(plan: FocusPlan): EntityAlias[];
}

export async function resolveEntities(reader: NetworkReader, extractions: readonly Extraction[]): Promise<ResolvedEntities> {
  const keys = mentionedEntityKeys(extractions);
  const variants = new Map(keys.map((key) => [key, entityKeyVariants(key)]));
  const found = await reader.findEntities([...new Set([...keys, ...[...variants.values()].flat()])]);
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
  const rewritten = extractions.map((e) => ({
    ...e,
    entities: e.entities.map((name) => canonical.get(entityKey(name))?.name ?? name),
  }));
  return {
    extractions: rewritten,
    existing: found,
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
