/**
 * The audit log as the service writes and reads it (docs/design.md, "Tenants and keys"). Key and
 * quota changes write their entry in their own batch (key-lifecycle.ts, tenant-quotas.ts); the
 * operations on an agent (deletion, purge, import) record theirs here once the agent accepted them.
 * An entry holds names and numbers only: never memory content, never a key.
 */
import { AuditLog, type AuditEntry, type AuditRecord } from "../storage/audit-log";

/** An entry's details: names and numbers only. */
export type AuditDetails = AuditEntry["details"];
import { createDb } from "../storage/db";

/**
 * Appends an entry for a change already accepted. A failure is logged (the entry, which holds no
 * content, with it) rather than answered: the change happened, and a retry would not undo it.
 */
export async function recordAudit(d1: D1Database, entry: AuditEntry): Promise<void> {
  try {
    await new AuditLog(createDb(d1)).append(entry);
  } catch (err) {
    console.error("audit entry not written", entry, err);
  }
}

/** An entry as the admin API and the CLI show it. */
export interface AuditView {
  id: number;
  at: number;
  action: string;
  actor: string;
  request_id: string | null;
  agent_id: string | null;
  subject: string | null;
  details: AuditRecord["details"];
}

/**
 * A page of the tenant's entries, newest first, below the entry id `before`; `next_before`
 * continues after it (null on the last page).
 */
export async function auditPage(
  d1: D1Database,
  tenantId: string,
  before: number | undefined,
  limit: number,
): Promise<{ entries: AuditView[]; next_before: number | null }> {
  const records = await new AuditLog(createDb(d1)).page(tenantId, before, limit);
  const last = records.at(-1);
  return {
    entries: records.map((e) => ({
      id: e.id,
      at: e.at,
      action: e.action,
      actor: e.actor,
      request_id: e.requestId,
      agent_id: e.agentId,
      subject: e.subject,
      details: e.details,
    })),
    next_before: records.length === limit && last ? last.id : null,
  };
}

/** Days the audit log keeps an entry when AUDIT_RETENTION_DAYS says nothing. */
const DEFAULT_RETENTION_DAYS = 365;

export function auditRetentionDays(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_RETENTION_DAYS;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 36_500)
    throw new Error(`AUDIT_RETENTION_DAYS must be a whole number of days, got "${raw}"`);
  return days;
}

/** Deletes entries older than the retention (a bounded batch per call; the cron calls it every run). */
export function pruneAudit(d1: D1Database, now: number, retentionDays: number): Promise<number> {
  return new AuditLog(createDb(d1)).prune(now - retentionDays * 86_400_000);
}
