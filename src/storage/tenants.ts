/**
 * The tenants table: each tenant's quota overrides and model weight, set by the operator
 * (docs/deploy.md, "Quotas"), and the jurisdiction and region its agents are created in
 * (docs/deploy.md, "Near the user"). A tenant without a row has every default, no jurisdiction and
 * no region.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { StoredOverrides } from "../config/quotas";
import { jurisdictionOf, type Jurisdiction } from "../vocabulary/jurisdictions";
import { regionOf, type Region } from "../vocabulary/regions";
import type { Db } from "./db";
import { tenants } from "./schema";

/** What a request's tenant brings besides its key: its quota overrides, its agents' jurisdiction and region. */
export interface TenantRecord {
  overrides: StoredOverrides;
  jurisdiction: Jurisdiction | null;
  region: Region | null;
}

export const NO_OVERRIDES: StoredOverrides = {
  maxAgents: null,
  maxNodesPerAgent: null,
  messagesPerDay: null,
  requestsPerMinute: null,
  modelWeight: null,
};

export class Tenants {
  constructor(private readonly db: Db) {}

  async overrides(tenantId: string): Promise<StoredOverrides> {
    return (await this.record(tenantId)).overrides;
  }

  async record(tenantId: string): Promise<TenantRecord> {
    const [row] = await this.db
      .select({
        maxAgents: tenants.maxAgents,
        maxNodesPerAgent: tenants.maxNodesPerAgent,
        messagesPerDay: tenants.messagesPerDay,
        requestsPerMinute: tenants.requestsPerMinute,
        modelWeight: tenants.modelWeight,
        jurisdiction: tenants.jurisdiction,
        region: tenants.region,
      })
      .from(tenants)
      .where(eq(tenants.tenantId, tenantId))
      .limit(1);
    if (!row) return { overrides: NO_OVERRIDES, jurisdiction: null, region: null };
    const { jurisdiction, region, ...overrides } = row;
    return { overrides, jurisdiction: jurisdictionOf(jurisdiction), region: regionOf(region) };
  }

  /** Replaces the tenant's overrides (null: back to the default). */
  set(tenantId: string, overrides: StoredOverrides, now: number) {
    return this.db
      .insert(tenants)
      .values({ tenantId, ...overrides, updatedAt: now })
      .onConflictDoUpdate({ target: tenants.tenantId, set: { ...overrides, updatedAt: now } });
  }

  /**
   * Sets the jurisdiction of the tenant's agents, only while the tenant has no registered agent
   * (the condition is in the statement: an agent registering at the same moment either comes first
   * and the change writes nothing, or comes after and is placed by the new value). Unchanged rows
   * are left alone too. A statement for a batch; callers read the row back to tell whether it was written.
   */
  setJurisdiction(tenantId: string, jurisdiction: Jurisdiction | null, now: number): SQL {
    return sql`
      INSERT INTO tenants (tenant_id, jurisdiction, updated_at)
      SELECT ${tenantId}, ${jurisdiction}, ${now}
      WHERE NOT EXISTS (SELECT 1 FROM agents WHERE tenant_id = ${tenantId})
      ON CONFLICT (tenant_id) DO UPDATE SET jurisdiction = excluded.jurisdiction, updated_at = excluded.updated_at
      WHERE tenants.jurisdiction IS NOT excluded.jurisdiction`;
  }

  /**
   * Sets the region of the tenant's new agents (any time: agents placed before keep their place).
   * Unchanged rows are left alone. A statement for a batch.
   */
  setRegion(tenantId: string, region: Region | null, now: number): SQL {
    return sql`
      INSERT INTO tenants (tenant_id, region, updated_at) VALUES (${tenantId}, ${region}, ${now})
      ON CONFLICT (tenant_id) DO UPDATE SET region = excluded.region, updated_at = excluded.updated_at
      WHERE tenants.region IS NOT excluded.region`;
  }
}
