/**
 * What a write says of the memories it makes (docs/design.md, "Attributes, not networks"): their
 * session, their tags and their expiry, given by the request or, for the expiry, the agent's
 * `retention_days` from the write's time. Every memory the write makes carries them (segments,
 * explicit memories, episodes); entities, shared by every session, carry none. A write into a
 * session also adds to the object's record of it (recordSession).
 */
import type { AgentParams } from "../../config/params";
import { memoryTime } from "../../memory/memory-filter";
import type { SessionRecord, WriteOp } from "../../memory/write-ops";
import type { Metadata, WriteScopeFields } from "../../vocabulary/memory-filter";
import type { MemoryNode } from "../../vocabulary/records";

const DAY_MS = 86_400_000;

export interface WriteScope {
  sessionId: string | null;
  metadata: Metadata | null;
  expiresAt: number | null;
}

/** The scope of a write at `now` (the task's time: when the memories are written). */
export function writeScope(fields: WriteScopeFields, params: Pick<AgentParams, "retention_days">, now: number): WriteScope {
  const retention = params.retention_days;
  return {
    sessionId: fields.session_id ?? null,
    metadata: fields.metadata ?? null,
    expiresAt: fields.expires_at ?? (retention === null ? null : now + retention * DAY_MS),
  };
}

/** The nodes with the scope on every memory (entities untouched). */
export function scoped(nodes: readonly MemoryNode[], scope: WriteScope): MemoryNode[] {
  return nodes.map((n) => (n.kind === "entity" ? n : { ...n, ...scope }));
}

/**
 * The sessions' records of nodes written as they were (an import): per session, the span of its
 * memories and the distinct messages its segments came from.
 */
export function sessionRecordsOf(nodes: readonly MemoryNode[]): WriteOp[] {
  const sessions = new Map<string, { from: number; to: number; messages: Set<string> }>();
  for (const node of nodes) {
    if (node.sessionId === null || node.kind === "entity") continue;
    const time = memoryTime(node);
    const record = sessions.get(node.sessionId) ?? { from: time, to: time, messages: new Set<string>() };
    record.from = Math.min(record.from, time);
    record.to = Math.max(record.to, time);
    if (node.kind === "segment") for (const id of node.sourceMessageIds) record.messages.add(id);
    sessions.set(node.sessionId, record);
  }
  return [...sessions].map(([id, r]) => ({ type: "recordSession", session: { id, from: r.from, to: r.to, messages: r.messages.size } }));
}

/** The bookkeeping of a write into a session: its memories' span and the messages it stored (none without a session). */
export function sessionOps(scope: WriteScope, nodes: readonly MemoryNode[], messages: number): WriteOp[] {
  const memories = nodes.filter((n) => n.kind !== "entity");
  if (scope.sessionId === null || memories.length === 0) return [];
  const times = memories.map(memoryTime);
  const session: SessionRecord = { id: scope.sessionId, from: Math.min(...times), to: Math.max(...times), messages };
  return [{ type: "recordSession", session }];
}
