/**
 * The one predicate of a read's filter (docs/design.md, "Scoping: sessions, speakers, tags and
 * expiry"): whether a memory may be returned. Pure; every path that finds candidates (the BM25
 * index, recall's walk, listings in memory) calls it, and src/storage/filter-sql.ts states the same
 * in SQL (the unit tests hold the two to one reference).
 *
 * - never a memory that has expired (`expiresAt` at or before `now`), nor a superseded one unless asked;
 * - `kinds`: the node's kind is one of them;
 * - `session_ids`, `speakers`: its session, its speaker is one of them;
 * - `metadata`: per key, a bare value is equality (same type and value); operators all hold:
 *   `eq`, `in`, `ne` (absent or another value), `exists`, and for numbers `gt` `gte` `lt` `lte`;
 * - `any`: at least one alternative holds;
 * - `time_range`: its message time, else when it was written, within the inclusive bounds.
 */
import type { NodeKind } from "../vocabulary/node-kinds";
import type { MemoryNode } from "../vocabulary/records";
import type { FilterClause, MemoryFilter, Metadata, MetadataCondition, MetadataValue } from "../vocabulary/memory-filter";

/** What the predicate reads of a node. */
export type FilterableNode = Pick<
  MemoryNode,
  "kind" | "sessionId" | "speaker" | "metadata" | "expiresAt" | "messageTime" | "createdAt" | "supersededBy"
>;

export interface ReadScope {
  filter: MemoryFilter;
  /** The kinds the read returns (all when absent). */
  kinds?: readonly NodeKind[] | undefined;
  /** The read's clock: what expired at or before it is gone. */
  now: number;
  /** Superseded versions are history: only a listing asked for them returns them. */
  includeSuperseded?: boolean;
}

/** A node's time for time ranges: its messages' time, else when it was written. */
export function memoryTime(node: Pick<MemoryNode, "messageTime" | "createdAt">): number {
  return node.messageTime ?? node.createdAt;
}

/** Whether the node has expired at `now` (it is then gone for every read). */
export function expired(node: Pick<MemoryNode, "expiresAt">, now: number): boolean {
  return node.expiresAt !== null && node.expiresAt <= now;
}

/** Whether a read of `scope` may return `node`. */
export function passesScope(node: FilterableNode, scope: ReadScope): boolean {
  if (expired(node, scope.now)) return false;
  if (!scope.includeSuperseded && node.supersededBy !== null) return false;
  if (scope.kinds && !scope.kinds.includes(node.kind)) return false;
  return passesAttributes(node, scope.filter);
}

/** The filter's attribute conditions alone (sessions, speakers, tags, alternatives, time range). */
export function passesAttributes(node: FilterableNode, filter: MemoryFilter): boolean {
  if (!passesClause(node, filter)) return false;
  if (filter.any && !filter.any.some((clause) => passesClause(node, clause))) return false;
  const range = filter.time_range;
  if (range && (range.from !== undefined || range.to !== undefined)) {
    const time = memoryTime(node);
    if (range.from !== undefined && time < range.from) return false;
    if (range.to !== undefined && time > range.to) return false;
  }
  return true;
}

function passesClause(node: FilterableNode, clause: FilterClause): boolean {
  if (clause.session_ids && (node.sessionId === null || !clause.session_ids.includes(node.sessionId))) return false;
  if (clause.speakers && (node.speaker === null || !clause.speakers.includes(node.speaker))) return false;
  if (clause.metadata) {
    for (const [key, condition] of Object.entries(clause.metadata)) if (!holds(node.metadata, key, condition)) return false;
  }
  return true;
}

/** One tag's condition on a memory's tags. */
export function holds(metadata: Metadata | null, key: string, condition: MetadataCondition): boolean {
  const present = metadata !== null && Object.hasOwn(metadata, key);
  const value = present ? metadata[key] : undefined;
  if (typeof condition !== "object") return value !== undefined && same(value, condition);
  if (condition.exists !== undefined && condition.exists !== present) return false;
  if (condition.eq !== undefined && (value === undefined || !same(value, condition.eq))) return false;
  if (condition.in !== undefined && (value === undefined || !condition.in.some((v) => same(value, v)))) return false;
  if (condition.ne !== undefined && value !== undefined && same(value, condition.ne)) return false;
  const bounds = [condition.gt, condition.gte, condition.lt, condition.lte];
  if (bounds.some((b) => b !== undefined)) {
    if (typeof value !== "number") return false;
    if (condition.gt !== undefined && !(value > condition.gt)) return false;
    if (condition.gte !== undefined && !(value >= condition.gte)) return false;
    if (condition.lt !== undefined && !(value < condition.lt)) return false;
    if (condition.lte !== undefined && !(value <= condition.lte)) return false;
  }
  return true;
}

/** Equality of tag values: the same type and the same value ("2" is not 2, true is not 1). */
function same(a: MetadataValue, b: MetadataValue): boolean {
  return typeof a === typeof b && a === b;
}

/**
 * Whether a trace (a dangling link of `source`) follows the filter (docs/design.md, "Traces follow
 * the filter by the node that holds them"): its source must not have expired and must pass the
 * filter's attribute conditions; an entity holds none, so it passes only a filter that names none.
 */
export function traceFollows(source: FilterableNode, filter: MemoryFilter, attributesNamed: boolean, now: number): boolean {
  if (expired(source, now)) return false;
  if (source.kind === "entity") return !attributesNamed;
  return passesAttributes(source, filter);
}
