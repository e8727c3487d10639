/**
 * What the audit log records (docs/design.md, "Tenants and keys"): changes to a tenant's keys and
 * quotas, and the operations that remove or bring in memory wholesale. An entry names who acted
 * (a key's public prefix, or the operator), when, and the request; never memory content.
 */
export const AUDIT_ACTIONS = [
  "key.created",
  "key.rotated",
  "key.revoked",
  "agent.deleted",
  "memory.purged",
  "session.purged",
  "agent.imported",
  "quota.changed",
  "placement.changed",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
