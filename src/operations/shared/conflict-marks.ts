/**
 * Which memories an answer must mark as conflicting (docs/design.md, "Memory operations"): a memory's outgoing
 * 矛盾 (contradicts) links to memories that still exist and are not superseded. Like any link they
 * decay: a contradiction nobody comes back to is forgotten, and its mark with it.
 */
import { RELATION } from "../../vocabulary/relations";
import type { NetworkReader } from "../../engine/network-reader";

/** For each of `ids`, the ids of the memories it contradicts (ascending; empty when none). */
export async function conflictMarks(reader: NetworkReader, ids: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const links = await reader.outgoingLinks(ids, RELATION.contradicts);
  if (links.length === 0) return out;
  const targets = await reader.load([...new Set(links.map((l) => l.target))]);
  for (const link of links) {
    const target = targets.get(link.target);
    if (target && target.supersededBy === null) out.get(link.source)?.push(link.target);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}
