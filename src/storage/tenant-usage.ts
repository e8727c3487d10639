/**
 * Usage per tenant and UTC day in the primary database (docs/deploy.md, "Usage"): the daily
 * messages quota's own count (charged where a remember is accepted, exactly: one conditional
 * upsert, so concurrent remembers of a tenant's agents can never pass the limit together), each
 * agent's absolute counts as its object reports them (a report sent twice changes nothing), and
 * the cron's daily measurement of what the tenant's agents hold.
 */
import { and, eq, gte, lte, sql } from "drizzle-orm";
import { statement, type Statement } from "./batch";
import type { Db } from "./db";
import { agentUsage, tenantUsage } from "./schema";

/** The tenant-level metrics: the messages quota's count, and the cron's daily measurements. */
export const MESSAGES_REMEMBERED = "messages_remembered";
export const NODES_HELD = "nodes_held";
export const VECTORS_HELD = "vectors_held";

export interface UsageRow {
  day: string;
  metric: string;
  value: number;
}

export class TenantUsage {
  constructor(private readonly db: Db) {}

  /**
   * Adds `messages` to the tenant's count for `day` unless that passes `limit`: true when charged.
   * One statement, so it is exact under any concurrency (D1 runs one write at a time).
   */
  async chargeMessages(tenantId: string, day: string, messages: number, limit: number): Promise<boolean> {
    const rows = await this.db.all<{ value: number }>(sql`
      INSERT INTO tenant_usage (tenant_id, day, metric, value)
      SELECT ${tenantId}, ${day}, ${MESSAGES_REMEMBERED}, ${messages} WHERE ${messages} <= ${limit}
      ON CONFLICT (tenant_id, day, metric) DO UPDATE SET value = value + excluded.value
      WHERE tenant_usage.value + excluded.value <= ${limit}
      RETURNING value`);
    return rows.length > 0;
  }

  /** Takes back a charge whose write was refused after all. */
  async refundMessages(tenantId: string, day: string, messages: number): Promise<void> {
    await this.db.run(sql`
      UPDATE tenant_usage SET value = max(0, value - ${messages})
      WHERE tenant_id = ${tenantId} AND day = ${day} AND metric = ${MESSAGES_REMEMBERED}`);
  }

  /**
   * An agent's report: its absolute counts per day (kept at the largest reported, so an old report
   * arriving late lowers nothing) and what it holds now (the registry row, for the cron's sums).
   */
  reportStatements(
    tenantId: string,
    agentId: string,
    rows: readonly UsageRow[],
    held: { agentUid: number; nodes: number; vectors: number } | undefined,
  ): Statement[] {
    const out: Statement[] = [];
    if (rows.length > 0) {
      out.push(
        statement(sql`
          INSERT INTO agent_usage (tenant_id, agent_id, day, metric, value)
          SELECT ${tenantId}, ${agentId}, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]')
          FROM json_each(${JSON.stringify(rows.map((r) => [r.day, r.metric, r.value]))}) j WHERE true
          ON CONFLICT (tenant_id, day, metric, agent_id) DO UPDATE SET value = max(agent_usage.value, excluded.value)`),
      );
    }
    if (held) {
      out.push(statement(sql`UPDATE agents SET nodes_held = ${held.nodes}, vectors_held = ${held.vectors} WHERE id = ${held.agentUid}`));
    }
    return out;
  }

  /** The cron's daily measurement: each tenant's agents' holdings summed, the day's largest kept. */
  async measureHeld(day: string): Promise<void> {
    await this.db.run(sql`
      INSERT INTO tenant_usage (tenant_id, day, metric, value)
      SELECT tenant_id, ${day}, metric, total FROM (
        SELECT tenant_id, ${NODES_HELD} AS metric, sum(nodes_held) AS total FROM agents GROUP BY tenant_id
        UNION ALL
        SELECT tenant_id, ${VECTORS_HELD} AS metric, sum(vectors_held) AS total FROM agents GROUP BY tenant_id
      ) WHERE true
      ON CONFLICT (tenant_id, day, metric) DO UPDATE SET value = max(tenant_usage.value, excluded.value)`);
  }

  /** The tenant's own rows and the sums of its agents' rows, per day and metric, from `from` to `to` (UTC days, inclusive). */
  async between(tenantId: string, from: string, to: string): Promise<{ tenant: UsageRow[]; agents: UsageRow[] }> {
    const tenant = await this.db
      .select({ day: tenantUsage.day, metric: tenantUsage.metric, value: tenantUsage.value })
      .from(tenantUsage)
      .where(and(eq(tenantUsage.tenantId, tenantId), gte(tenantUsage.day, from), lte(tenantUsage.day, to)));
    const agents = await this.db
      .select({ day: agentUsage.day, metric: agentUsage.metric, value: sql<number>`sum(${agentUsage.value})` })
      .from(agentUsage)
      .where(and(eq(agentUsage.tenantId, tenantId), gte(agentUsage.day, from), lte(agentUsage.day, to)))
      .groupBy(agentUsage.day, agentUsage.metric);
    return { tenant, agents };
  }
}
