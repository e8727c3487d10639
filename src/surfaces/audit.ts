/**
 * The audit entry of an operation on an agent (docs/design.md, "Tenants and keys"): deleting it,
 * purging a memory or a session, importing into it. Recorded once the agent accepted the
 * operation, with who asked (the key's public prefix), the request id, and names and numbers only.
 */
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env";
import { recordAudit, type AuditDetails } from "../service/audit";
import type { AuditAction } from "../vocabulary/audit-actions";

export function audited(
  c: Context<AppEnv>,
  action: AuditAction,
  agentId: string,
  subject: string | null = null,
  details: AuditDetails = null,
): Promise<void> {
  const { tenantId, actor } = c.get("principal");
  return recordAudit(c.env.DB, { tenantId, at: Date.now(), action, actor, requestId: c.get("requestId"), agentId, subject, details });
}
