/**
 * The audit log's rows (docs/design.md, "Tenants and keys"): appended in the same batch as the
 * change they record where the change is a D1 write (keys, quotas), read newest first by the
 * operator, pruned after AUDIT_RETENTION_DAYS by the cron.
 */
import { and, desc, eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { AuditAction } from "../vocabulary/audit-actions";
import type { Db } from "./db";
import { auditLog } from "./schema";

export interface AuditEntry {
  tenantId: string;
  at: number;
  action: AuditAction;
  actor: string;
  requestId: string | null;
  agentId: string | null;
  subject: string | null;
  /** Names and numbers only (never memory content). */
  details: Readonly<Record<string, string | number | boolean | null>> | null;
}

export interface AuditRecord extends AuditEntry {
  id: number;
}

/** Rows per statement when the cron prunes, so one statement stays well inside D1's time limit. */
const PRUNE_BATCH = 5_000;

export class AuditLog {
  constructor(private readonly db: Db) {}

  append(entry: AuditEntry) {
    return this.db.insert(auditLog).values({ ...entry, details: entry.details === null ? null : JSON.stringify(entry.details) });
  }

  /**
   * The entry, written only when the batch's statement before it changed a row (SQLite's
   * changes(): the change is conditional, and the log records only what happened).
   */
  appendIfChanged(entry: AuditEntry) {
    const details = entry.details === null ? null : JSON.stringify(entry.details);
    return sql`INSERT INTO audit_log (tenant_id, at, action, actor, request_id, agent_id, subject, details)
      SELECT ${entry.tenantId}, ${entry.at}, ${entry.action}, ${entry.actor}, ${entry.requestId}, ${entry.agentId}, ${entry.subject}, ${details}
      WHERE changes() > 0`;
  }

  /** A page of the tenant's entries, newest first, below the id `before` when given. */
  async page(tenantId: string, before: number | undefined, limit: number): Promise<AuditRecord[]> {
    const rows = await this.db
      .select()
      .from(auditLog)
      .where(before === undefined ? eq(auditLog.tenantId, tenantId) : and(eq(auditLog.tenantId, tenantId), lt(auditLog.id, before)))
      .orderBy(desc(auditLog.id))
      .limit(limit);
    return rows.map((row) => ({ ...row, details: parseDetails(row.details) }));
  }

  /** Deletes up to PRUNE_BATCH entries older than `cutoff`; returns how many went. */
  async prune(cutoff: number): Promise<number> {
    const gone = await this.db
      .delete(auditLog)
      .where(inArray(auditLog.id, this.db.select({ id: auditLog.id }).from(auditLog).where(lte(auditLog.at, cutoff)).limit(PRUNE_BATCH)))
      .returning({ id: auditLog.id });
    return gone.length;
  }
}

function parseDetails(text: string | null): AuditEntry["details"] {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
    const out: Record<string, string | number | boolean | null> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
    }
    return out;
  } catch {
    return null;
  }
}
