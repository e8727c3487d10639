import type { GraphLink, PackedLinks } from "../../../src/memory/graph-links";

/** Links as the object's copy stores them (src/engine/graph-snapshot.ts): arrays, relations by code. */
export function packed(links: readonly GraphLink[]): PackedLinks {
  const relations = [...new Set(links.map((l) => l.relation))];
  return {
    count: links.length,
    sources: Int32Array.from(links.map((l) => l.source)),
    targets: Int32Array.from(links.map((l) => l.target)),
    relationCodes: Uint16Array.from(links.map((l) => relations.indexOf(l.relation))),
    relations,
    levels: Float64Array.from(links.map((l) => l.level)),
    created: Float64Array.from(links.map((l) => l.createdAt)),
  };
}
