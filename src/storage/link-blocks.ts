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

type Patch = Record<string, Record<string, unknown>>;

/** One block's patch, with how many links it carries (statements are sized by links). */
export interface BlockPatch {
  spage: number;
  tpage: number;
  body: Patch;
  links: number;
}

function blockPatches<T extends LinkKey>(items: readonly T[], value: (item: T) => unknown): BlockPatch[] {
  const blocks = new Map<string, BlockPatch>();
  for (const item of items) {
    const spage = pageOf(item.source);
    const tpage = pageOf(item.target);
    const key = `${spage}:${tpage}`;
    let block = blocks.get(key);
    if (!block) blocks.set(key, (block = { spage, tpage, body: {}, links: 0 }));
    const source = String(item.source);
    (block.body[source] ??= {})[entryKey(item.target, item.relation)] = value(item);
    block.links++;
  }
  return [...blocks.values()];
}

/** The links' whole entries by block. */
export function entryPatches(links: readonly NewLink[]): BlockPatch[] {
  return blockPatches(links, (l) => ({ l: l.level, e: l.epoch, c: l.createdAt }));
}

/** The links' levels and epochs only, by block (an upsert keeps an existing link's creation time). */
export function levelPatches(links: readonly NewLink[]): BlockPatch[] {
  return blockPatches(links, (l) => ({ l: l.level, e: l.epoch }));
}

/** Removals by key (`null` deletes in a merge patch). */
export function removalPatches(keys: readonly LinkKey[]): BlockPatch[] {
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
