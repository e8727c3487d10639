/**
 * The tenants table: each tenant's quota overrides and model weight, set by the operator
 * (docs/deploy.md, "Quotas"). A tenant without a row has every default.
 */
import { eq } from "drizzle-orm";
import type { StoredOverrides } from "../config/quotas";
import { NO_OVERRIDES } from "./api-keys";
import type { Db } from "./db";
import { tenants } from "./schema";

export class Tenants {
  constructor(private readonly db: Db) {}

  async overrides(tenantId: string): Promise<StoredOverrides> {
    const [row] = await this.db
      .select({
        maxAgents: tenants.maxAgents,
        maxNodesPerAgent: tenants.maxNodesPerAgent,
        messagesPerDay: tenants.messagesPerDay,
        requestsPerMinute: tenants.requestsPerMinute,
        modelWeight: tenants.modelWeight,
      })
      .from(tenants)
      .where(eq(tenants.tenantId, tenantId))
      .limit(1);
    return row ?? NO_OVERRIDES;
  }

  /** Replaces the tenant's overrides (null: back to the default). */
  set(tenantId: string, overrides: StoredOverrides, now: number) {
    return this.db
      .insert(tenants)
      .values({ tenantId, ...overrides, updatedAt: now })
      .onConflictDoUpdate({ target: tenants.tenantId, set: { ...overrides, updatedAt: now } });
  }
}
