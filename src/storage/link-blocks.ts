/**
 * How links are stored in D1 (docs/design.md, "Decision 2"): one row per block of links, the links
 * from the sources of one id page to the targets of another (`spage`, `tpage`: ids >> BLOCK_BITS),
 * its body a JSON object `{ "<source>": { "<target>|<relation>": { l, e, c } } }` (level, epoch,
 * creation time). A write sends each touched block a JSON merge patch (RFC 7396, SQLite's
 * `json_patch`): absolute values, so applying it twice is applying it once. Pure: the patches only.
 */
import { ROWS_PER_JSON_STATEMENT } from "../config/limits";
import type { LinkKey, NewLink } from "../vocabulary/records";

/** 256 ids a page: a block holds at most 256 × 256 pairs (a few thousand links in practice). */
export const BLOCK_BITS = 8;

export function pageOf(id: number): number {
  return id >> BLOCK_BITS;
}

/** The key of a link inside its source's object. A target id holds no `|`, so the first one splits. */
export function entryKey(target: number, relation: string): string {
  return `${target}|${relation}`;
}

/** Per source, per entry key: what the block's body takes there. */
type Patch<V = unknown> = Record<string, Record<string, V>>;

/** A link's entry: level, epoch, creation time. */
interface Entry {
  l: number;
  e: number;
  c: number;
}

/** One block's patch, with how many links it carries (statements are sized by links). */
export interface BlockPatch<V = unknown> {
  spage: number;
  tpage: number;
  body: Patch<V>;
  links: number;
}

/** `value` sees what an earlier item of the same key left (a list may name a link twice). */
function blockPatches<T extends LinkKey, V>(items: readonly T[], value: (item: T, earlier: V | undefined) => V): BlockPatch<V>[] {
  const blocks = new Map<string, BlockPatch<V>>();
  for (const item of items) {
    const spage = pageOf(item.source);
    const tpage = pageOf(item.target);
    const blockKey = `${spage}:${tpage}`;
    let block = blocks.get(blockKey);
    if (!block) blocks.set(blockKey, (block = { spage, tpage, body: {}, links: 0 }));
    const source = String(item.source);
    const entries = (block.body[source] ??= {});
    const key = entryKey(item.target, item.relation);
    entries[key] = value(item, entries[key]);
    block.links++;
  }
  return [...blocks.values()];
}

/** The links' whole entries by block; of a link named twice, the first (an insert keeps what exists). */
export function entryPatches(links: readonly NewLink[]): BlockPatch<Entry>[] {
  return blockPatches(links, (l, earlier: Entry | undefined): Entry => earlier ?? { l: l.level, e: l.epoch, c: l.createdAt });
}

/**
 * The links' whole entries by block, each block with its levels and epochs alone beside them (an
 * upsert sets those and keeps an existing link's creation time).
 */
export function upsertPatches(links: readonly NewLink[]): (BlockPatch<Entry> & { levels: Patch })[] {
  // Of a link named twice, the last level and epoch and the first creation time (the graph's `set`).
  const blocks = blockPatches(links, (l, earlier: Entry | undefined): Entry => ({ l: l.level, e: l.epoch, c: earlier?.c ?? l.createdAt }));
  return blocks.map((block) => {
    const levels: Patch = {};
    for (const [source, entries] of Object.entries(block.body))
      levels[source] = Object.fromEntries(Object.entries(entries).map(([key, { l, e }]) => [key, { l, e }]));
    return { ...block, levels };
  });
}

/** Removals by key (`null` deletes in a merge patch). */
export function removalPatches(keys: readonly LinkKey[]): BlockPatch<null>[] {
  return blockPatches(keys, () => null);
}

/** Blocks grouped into statements of at most `size` links (a larger block goes alone). */
export function statementGroups<T extends BlockPatch>(blocks: readonly T[], size: number = ROWS_PER_JSON_STATEMENT): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let links = 0;
  for (const block of blocks) {
    if (current.length > 0 && links + block.links > size) {
      groups.push(current);
      current = [];
      links = 0;
    }
    current.push(block);
    links += block.links;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** The distinct pages of some ids. */
export function pagesOf(ids: readonly number[]): number[] {
  return [...new Set(ids.map(pageOf))];
}
