/**
 * A tenant's usage per UTC day (docs/deploy.md, "Usage": the basis of a bill), read through the
 * admin API and the CLI. Three sources, each counted where it happens: the messages the daily
 * quota charged (exact at acceptance), each agent's own counts as its object reported them (at
 * most a report interval behind: requests by kind, model calls by kind, D1 rows), and the cron's
 * daily measurement of the nodes and vectors the tenant's agents hold (the day's largest).
 */
import { z } from "zod";
import { utcDay } from "../config/quotas";
import { createDb } from "../storage/db";
import { MESSAGES_REMEMBERED, NODES_HELD, TenantUsage, VECTORS_HELD, type UsageRow } from "../storage/tenant-usage";

const DAY = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a UTC day, YYYY-MM-DD")
  .refine((d) => utcDay(Date.parse(`${d}T00:00:00Z`) || 0) === d, "not a calendar day");

/** The longest range one report covers. */
const MAX_DAYS = 366;
const DEFAULT_DAYS = 31;

export const UsageQuerySchema = z
  .object({
    from: DAY.optional().describe("First day (default: 30 days before `to`)."),
    to: DAY.optional().describe("Last day (default: today)."),
  })
  .strict();
export type UsageQuery = z.output<typeof UsageQuerySchema>;

/** The metrics a report names, from the agents' request kinds. */
const REQUEST_METRICS: Readonly<Record<string, string>> = {
  "requests.recall": "recalls",
  "requests.searchMemories": "searches",
  "requests.getContext": "context_calls",
  "requests.remember": "remembers",
};

export interface UsageDay {
  day: string;
  messages_remembered: number;
  remembers: number;
  recalls: number;
  searches: number;
  context_calls: number;
  /** Workers AI calls that answered, by kind (the task's answer schema, or "embedding"). */
  model_calls: Record<string, number>;
  d1_rows_read: number;
  d1_rows_written: number;
  /** The day's largest measurement of what the tenant's agents held. */
  nodes_held: number;
  vectors_held: number;
  /** Every request an agent served, by operation (the task kind). */
  requests: Record<string, number>;
}

export interface UsageReport {
  tenant: string;
  from: string;
  to: string;
  days: UsageDay[];
  /** Sums over the days of every count (the holdings are daily measurements: not summed). */
  totals: Omit<UsageDay, "day" | "nodes_held" | "vectors_held">;
}

function emptyDay(day: string): UsageDay {
  return {
    day,
    messages_remembered: 0,
    remembers: 0,
    recalls: 0,
    searches: 0,
    context_calls: 0,
    model_calls: {},
    d1_rows_read: 0,
    d1_rows_written: 0,
    nodes_held: 0,
    vectors_held: 0,
    requests: {},
  };
}

function apply(day: UsageDay, row: UsageRow): void {
  const { metric, value } = row;
  if (metric === MESSAGES_REMEMBERED) day.messages_remembered += value;
  else if (metric === NODES_HELD) day.nodes_held = Math.max(day.nodes_held, value);
  else if (metric === VECTORS_HELD) day.vectors_held = Math.max(day.vectors_held, value);
  else if (metric === "d1_rows_read") day.d1_rows_read += value;
  else if (metric === "d1_rows_written") day.d1_rows_written += value;
  else if (metric.startsWith("model_calls.")) {
    const kind = metric.slice("model_calls.".length);
    day.model_calls[kind] = (day.model_calls[kind] ?? 0) + value;
  } else if (metric.startsWith("requests.")) {
    const kind = metric.slice("requests.".length);
    day.requests[kind] = (day.requests[kind] ?? 0) + value;
    const named = REQUEST_METRICS[metric] as keyof UsageDay | undefined;
    if (named === "remembers" || named === "recalls" || named === "searches" || named === "context_calls") day[named] += value;
  }
}

function addTo(total: Record<string, number>, part: Record<string, number>): void {
  for (const [k, v] of Object.entries(part)) total[k] = (total[k] ?? 0) + v;
}

/** A range a report does not cover (from after to, or more than MAX_DAYS): the caller's error. */
export class UsageRangeError extends Error {
  override readonly name = "UsageRangeError";
}

export async function usageReport(d1: D1Database, tenantId: string, query: UsageQuery, now: number): Promise<UsageReport> {
  const to = query.to ?? utcDay(now);
  const from = query.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * 86_400_000);
  if (from > to) throw new UsageRangeError(`from (${from}) is after to (${to})`);
  if ((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 >= MAX_DAYS) {
    throw new UsageRangeError(`a report covers at most ${MAX_DAYS} days`);
  }
  const { tenant, agents } = await new TenantUsage(createDb(d1)).between(tenantId, from, to);
  const days = new Map<string, UsageDay>();
  for (const row of [...tenant, ...agents]) {
    let day = days.get(row.day);
    if (!day) days.set(row.day, (day = emptyDay(row.day)));
    apply(day, row);
  }
  const list = [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  const { day: _d, nodes_held: _n, vectors_held: _v, ...zero } = emptyDay("");
  const totals = list.reduce((t, d) => {
    t.messages_remembered += d.messages_remembered;
    t.remembers += d.remembers;
    t.recalls += d.recalls;
    t.searches += d.searches;
    t.context_calls += d.context_calls;
    t.d1_rows_read += d.d1_rows_read;
    t.d1_rows_written += d.d1_rows_written;
    addTo(t.model_calls, d.model_calls);
    addTo(t.requests, d.requests);
    return t;
  }, zero);
  return { tenant: tenantId, from, to, days: list, totals };
}

/** The cron's measurement of what each tenant's agents hold today (the day's largest is kept). */
export function measureHeld(d1: D1Database, day: string): Promise<void> {
  return new TenantUsage(createDb(d1)).measureHeld(day);
}
