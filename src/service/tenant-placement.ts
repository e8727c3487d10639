/**
 * Where a tenant's agents are created, as the operator reads and sets it (docs/deploy.md, "Near
 * the user"): their jurisdiction and their region. The jurisdiction decides which object namespace
 * an agent is addressed in, so it can change only while the tenant has no agent (an agent never
 * moves); the region applies to agents created from then on (those before keep their place).
 */
import { z } from "zod";
import { AuditLog, type AuditEntry } from "../storage/audit-log";
import { runBatch, statement } from "../storage/batch";
import { createDb } from "../storage/db";
import { Tenants } from "../storage/tenants";
import { JurisdictionSchema, type Jurisdiction } from "../vocabulary/jurisdictions";
import { RegionSchema, type Region } from "../vocabulary/regions";
import type { Actor } from "./key-lifecycle";

export const TenantPlacementSchema = z
  .object({
    /** null: no jurisdiction (the default placement). */
    jurisdiction: JurisdictionSchema.nullable().optional(),
    /** null: no region (anywhere). */
    region: RegionSchema.nullable().optional(),
  })
  .strict()
  .refine((p) => p.jurisdiction !== undefined || p.region !== undefined, "name jurisdiction, region or both");
type TenantPlacementPatch = z.infer<typeof TenantPlacementSchema>;

export interface TenantPlacement {
  tenant: string;
  jurisdiction: Jurisdiction | null;
  region: Region | null;
}

/** The tenant has agents: its jurisdiction stays (answered 409 conflict). */
export class JurisdictionLockedError extends Error {
  override readonly name = "JurisdictionLockedError";
  constructor(tenantId: string) {
    super(`tenant ${tenantId} has agents: its jurisdiction can change only while it has none (delete them first)`);
  }
}

export async function tenantPlacement(d1: D1Database, tenantId: string): Promise<TenantPlacement> {
  const { jurisdiction, region } = await new Tenants(createDb(d1)).record(tenantId);
  return { tenant: tenantId, jurisdiction, region };
}

/**
 * Applies the patch, each change with its audit entry written only if the change was (one batch).
 * The jurisdiction's write is conditional on the tenant having no agent; read back, a value other
 * than the one asked for means an agent registered first (JurisdictionLockedError; the region part
 * of the patch is applied all the same). Setting a current value writes nothing.
 */
export async function setTenantPlacement(
  d1: D1Database,
  tenantId: string,
  patch: TenantPlacementPatch,
  by: Actor,
  now: number,
): Promise<TenantPlacement> {
  const db = createDb(d1);
  const tenants = new Tenants(db);
  const audit = new AuditLog(db);
  const before = await tenants.record(tenantId);
  const entry = (field: string, from: string | null, to: string | null): AuditEntry => ({
    tenantId,
    at: now,
    action: "placement.changed",
    ...by,
    agentId: null,
    subject: null,
    details: { field, from, to },
  });
  const statements = [];
  if (patch.region !== undefined && patch.region !== before.region) {
    statements.push(statement(tenants.setRegion(tenantId, patch.region, now)));
    statements.push(statement(audit.appendIfChanged(entry("region", before.region, patch.region))));
  }
  if (patch.jurisdiction !== undefined && patch.jurisdiction !== before.jurisdiction) {
    statements.push(statement(tenants.setJurisdiction(tenantId, patch.jurisdiction, now)));
    statements.push(statement(audit.appendIfChanged(entry("jurisdiction", before.jurisdiction, patch.jurisdiction))));
  }
  await runBatch(d1, statements);
  const after = await tenants.record(tenantId);
  if (patch.jurisdiction !== undefined && after.jurisdiction !== patch.jurisdiction) throw new JurisdictionLockedError(tenantId);
  return { tenant: tenantId, jurisdiction: after.jurisdiction, region: after.region };
}
