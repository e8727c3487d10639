/**
 * The Cron Trigger: a low-frequency safety net (docs/design.md, "Compression"). It reads the registry for agents
 * whose work is overdue and wakes their objects; it never compresses anything itself, and an idle
 * agent (due_at null) costs nothing. It also measures the storage agents are spread over (every D1
 * shard's size, every Vectorize index's vector count): a shard or index past STORAGE_FILL_RATIO of
 * its capacity takes no new agents from then on (docs/deploy.md, "Limits"). And it keeps the
 * tenants' books: each tenant's held nodes and vectors measured for the day's usage, and audit
 * entries older than AUDIT_RETENTION_DAYS pruned (docs/deploy.md, "Usage", "The audit log").
 */
import { agentStub } from "./agent/naming";
import { utcDay } from "./config/quotas";
import { auditRetentionDays, pruneAudit } from "./service/audit";
import { measureStorage } from "./service/storage-status";
import { measureHeld } from "./service/usage-report";
import { AgentRegistry } from "./storage/agent-registry";

/** Agents woken per cron run; the rest are found by the next run. */
export const WAKE_BATCH = 500;

export async function runScheduled(env: Env, now: number): Promise<{ woken: number; failed: number }> {
  const [woken] = await Promise.all([
    wakeDue(env, now),
    measureStorage(env, now).catch((err: unknown) => console.error("cron: measuring the storage failed", err)),
    measureHeld(env.DB, utcDay(now)).catch((err: unknown) => console.error("cron: measuring what tenants hold failed", err)),
    pruneAudit(env.DB, now, auditRetentionDays(env.AUDIT_RETENTION_DAYS)).catch((err: unknown) =>
      console.error("cron: pruning the audit log failed", err),
    ),
  ]);
  return woken;
}

async function wakeDue(env: Env, now: number): Promise<{ woken: number; failed: number }> {
  const due = await new AgentRegistry(env.DB).due(now, WAKE_BATCH);
  const results = await Promise.allSettled(due.map((identity) => agentStub(env, identity).wake()));
  const failed = results.filter((r) => r.status === "rejected").length;
  if (failed > 0) console.error(`cron: ${failed} of ${due.length} agents could not be woken`);
  return { woken: due.length - failed, failed };
}
