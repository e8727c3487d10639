/**
 * The counters of the production-shaped benchmark's cost table (src/agent/usage-meter.ts): each
 * seam counts what it should (D1 rows, vector writes and queries, the object's requests and active
 * time), a metered D1 answers exactly as the binding, and without BENCH_USAGE_COUNTERS nothing is
 * metered. The cold-path benchmark's additions: round trips (delayed when asked, sequential ones
 * apart), rows by kind of statement, and its hooks (src/agent/bench-hooks.ts).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AgentState } from "../src/agent/agent-state";
import { MemoryAgent } from "../src/agent/memory-agent";
import { AGENT_TASK_HOOKS } from "../src/agent/agent-tasks";
import { requestCounter, USAGE_COUNTERS, type UsageEnv } from "../src/agent/usage-meter";
import { EMBEDDING_DIMENSIONS } from "../src/models/local/local-embedder";
import { meteredD1, RoundTrips, type D1Usage } from "../src/storage/metered-d1";
import { meteredObjectStorage, type DoSqlUsage } from "../src/storage/metered-do-sql";
import { freshAgent, stubOf } from "./helpers";

/** A D1 meter that adds up what it is told. */
function totals() {
  const sum = { rowsRead: 0, rowsWritten: 0, unmetered: 0, roundTrips: 0, sequentialRoundTrips: 0 };
  const byKind: Record<string, number> = {};
  const meter = (u: D1Usage): void => {
    sum.rowsRead += u.rowsRead;
    sum.rowsWritten += u.rowsWritten;
    sum.unmetered += u.unmetered;
    sum.roundTrips += u.roundTrips ?? 0;
    sum.sequentialRoundTrips += u.sequentialRoundTrips ?? 0;
    if (u.kind !== undefined) byKind[u.kind] = (byKind[u.kind] ?? 0) + u.rowsWritten;
  };
  return { sum, byKind, meter };
}

describe("a metered D1 binding", () => {
  it("answers every kind of statement exactly as the binding does, and counts the rows", async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS usage_probe (id INTEGER PRIMARY KEY, a TEXT, b INTEGER)");
    await env.DB.exec("DELETE FROM usage_probe");
    const { sum, meter } = totals();
    const d1 = meteredD1(env.DB, meter);
    await d1.batch([1, 2, 3].map((i) => d1.prepare("INSERT INTO usage_probe (id, a, b) VALUES (?, ?, ?)").bind(i, `row ${i}`, i * 10)));
    expect(sum.rowsWritten).toBeGreaterThanOrEqual(3);
    await d1.prepare("UPDATE usage_probe SET b = b + 1 WHERE id = ?").bind(2).run();
    expect(sum.rowsWritten).toBeGreaterThanOrEqual(4);

    const select = "SELECT id, a, b FROM usage_probe ORDER BY id";
    expect(await d1.prepare(select).raw()).toEqual(await env.DB.prepare(select).raw());
    expect(await d1.prepare(select).raw({ columnNames: true })).toEqual(await env.DB.prepare(select).raw({ columnNames: true }));
    expect((await d1.prepare(select).all()).results).toEqual((await env.DB.prepare(select).all()).results);
    expect(await d1.prepare(select).first()).toEqual(await env.DB.prepare(select).first());
    expect(await d1.prepare(select).first("a")).toEqual(await env.DB.prepare(select).first("a"));
    expect(await d1.prepare("SELECT id FROM usage_probe WHERE id = ?").bind(99).first()).toBeNull();
    await expect(d1.prepare(select).first("missing")).rejects.toThrow("D1_COLUMN_NOTFOUND");
    // Six full reads of three rows at least.
    expect(sum.rowsRead).toBeGreaterThanOrEqual(18);
    expect(sum.unmetered).toBe(0);

    // A column named by an integer keeps its place.
    const numbered = "SELECT a, 7, id FROM usage_probe ORDER BY id";
    expect(await d1.prepare(numbered).raw()).toEqual(await env.DB.prepare(numbered).raw());
    expect(await d1.prepare(numbered).raw({ columnNames: true })).toEqual(await env.DB.prepare(numbered).raw({ columnNames: true }));

    // Two columns of one name (a join): the binding's own raw(), counted as unmetered.
    const join = "SELECT p.id, q.id FROM usage_probe p JOIN usage_probe q ON q.id = p.id ORDER BY p.id";
    expect(await d1.prepare(join).raw()).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(sum.unmetered).toBe(1);
  });
});

describe("a metered D1 binding's round trips", () => {
  it("counts a statement or a batch as one round trip, sequential only when none is in flight, each delayed", async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS trips_probe (id INTEGER PRIMARY KEY, a TEXT)");
    await env.DB.exec("DELETE FROM trips_probe");
    const { sum, byKind, meter } = totals();
    const d1 = meteredD1(env.DB, meter, { roundTrips: new RoundTrips(40) });
    const started = Date.now();
    await d1.batch([1, 2, 3].map((i) => d1.prepare("INSERT INTO trips_probe (id, a) VALUES (?, ?)").bind(i, `row ${i}`)));
    expect(sum).toMatchObject({ roundTrips: 1, sequentialRoundTrips: 1 });
    // Two at once: two round trips, one waited for in sequence.
    await Promise.all([d1.prepare("SELECT * FROM trips_probe").all(), d1.prepare("SELECT count(*) FROM trips_probe").first()]);
    expect(sum).toMatchObject({ roundTrips: 3, sequentialRoundTrips: 2 });
    await d1.prepare("DELETE FROM trips_probe WHERE id = ?").bind(1).run();
    expect(sum).toMatchObject({ roundTrips: 4, sequentialRoundTrips: 3 });
    // Three sequential round trips of 40 ms each at least.
    expect(Date.now() - started).toBeGreaterThanOrEqual(120);
    expect(byKind["insert trips_probe"]).toBe(3);
    expect(byKind["delete trips_probe"]).toBe(1);
  });
});

describe("the object's own SQLite, metered", () => {
  it("reports a statement's rows written when it runs, its rows read when the cursor is read to the end", async () => {
    await runInDurableObject(stubOf(freshAgent("do-sql")), async (_instance, ctx) => {
      const seen: DoSqlUsage[] = [];
      const storage = meteredObjectStorage(ctx.storage, (u) => seen.push(u));
      const sum = (kind: string, pick: (u: DoSqlUsage) => number) => seen.filter((u) => u.kind === kind).reduce((a, u) => a + pick(u), 0);
      storage.sql.exec("CREATE TABLE probe (id INTEGER PRIMARY KEY, a TEXT, b TEXT)");
      storage.sql.exec("CREATE INDEX probe_a ON probe (a)");
      // Two rows and their two index entries.
      storage.sql.exec("INSERT INTO probe (a, b) VALUES ('x', 'y'), ('z', 'w')");
      expect(sum("insert probe", (u) => u.rowsWritten)).toBe(4);
      const cursor = storage.sql.exec<{ id: number; a: string }>("SELECT id, a FROM probe ORDER BY id");
      expect(cursor.toArray()).toEqual([
        { id: 1, a: "x" },
        { id: 2, a: "z" },
      ]);
      expect(sum("select", (u) => u.rowsRead)).toBeGreaterThanOrEqual(2);
      // Everything else is the storage itself: a transaction, the same data.
      storage.transactionSync(() => storage.sql.exec("UPDATE probe SET b = 'n' WHERE id = 1"));
      expect(sum("update probe.b", (u) => u.rowsWritten)).toBe(1);
      expect(ctx.storage.sql.exec("SELECT b FROM probe WHERE id = 1").one().b).toBe("n");
    });
  });
});

describe("an agent with BENCH_USAGE_COUNTERS", () => {
  it("counts its requests, active time, D1 rows and vector writes and queries in its stats", async () => {
    const agentId = freshAgent("usage");
    const identity = { tenantId: "dev", agentId };
    const outcome = await runInDurableObject(stubOf(agentId), async (_instance, ctx) => {
      // A second object on the same storage, metered; it drains by itself well before the
      // backstop alarm (5 s), which is deleted at the end so the test's own instance never runs.
      const metered: Env & UsageEnv = { ...env, BENCH_USAGE_COUNTERS: "1" };
      const agent = new MemoryAgent(ctx, metered);
      const submitted = await agent.submit(
        identity,
        "remember",
        { messages: [{ role: "user", content: "Orion ships on Monday. Vega follows in June. Alice leads both launches." }] },
        { waitMs: 20_000 },
      );
      const afterRemember = await agent.stats(identity, 20_000);
      await agent.ask(identity, "recall", { query: "When does Vega ship?", keywords: [], relations: [], start: "hybrid" });
      // A query of the agent's index (recall asks it when the words alone do not find enough).
      const { state } = MemoryAgent.testAccess(agent);
      const [vector] = await state.embedder.embed(["Vega follows in June."]);
      if (vector) await state.vectors()?.query({ vector, topK: 3 });
      const afterRecall = await agent.stats(identity);
      await ctx.storage.deleteAlarm();
      return { submitted, afterRemember, afterRecall };
    });
    expect(outcome.submitted).toMatchObject({ ok: true, status: "done" });
    const { afterRemember: before, afterRecall: after } = outcome;
    const c = before.counters;
    expect(c[requestCounter("submit")]).toBe(1);
    expect(c[requestCounter("stats")]).toBe(1);
    expect(c[USAGE_COUNTERS.activeMs]).toBeGreaterThan(0);
    // Every node is a row written at least; reading happened too; nothing went unmetered.
    expect(before.nodes.total).toBeGreaterThan(0);
    expect(c[USAGE_COUNTERS.d1RowsWritten]).toBeGreaterThanOrEqual(before.nodes.total);
    expect(c[USAGE_COUNTERS.d1RowsRead]).toBeGreaterThan(0);
    expect(c[USAGE_COUNTERS.d1Unmetered] ?? 0).toBe(0);
    // The object's own rows: the task, the message ids, the scan rows at least.
    expect(c[USAGE_COUNTERS.doRowsWritten]).toBeGreaterThan(before.nodes.total);
    // One vector per node, as the index itself reports, and one more per node compressed since
    // (its vector is replaced), each of the embedder's length.
    const vectors = before.vector_index?.vectors ?? 0;
    expect(vectors).toBe(before.nodes.total);
    const written = vectors + (c.nodes_compressed ?? 0);
    expect(c[USAGE_COUNTERS.vectorsUpserted]).toBe(written);
    expect(c[USAGE_COUNTERS.vectorDimensionsUpserted]).toBe(written * EMBEDDING_DIMENSIONS);
    expect(c[USAGE_COUNTERS.vectorQueries] ?? 0).toBe(0);
    // The recall and the query: one more request, one vector query, rows read, none written.
    const d = after.counters;
    expect(d[requestCounter("ask")]).toBe(1);
    expect(d[requestCounter("stats")]).toBe(2);
    expect(d[USAGE_COUNTERS.vectorQueries]).toBe(1);
    expect(d[USAGE_COUNTERS.d1RowsRead]).toBeGreaterThan(c[USAGE_COUNTERS.d1RowsRead] ?? 0);
    expect(d[USAGE_COUNTERS.d1RowsWritten]).toBe(c[USAGE_COUNTERS.d1RowsWritten]);
    // A read is kept in memory: it writes no row of the object's task table (it wrote 9 before).
    const taskRows = (counters: Record<string, number>) =>
      Object.entries(counters)
        .filter(([key]) => key.startsWith(`${USAGE_COUNTERS.doRowsWritten}:`) && /\btasks\b/.test(key))
        .reduce((n, [, v]) => n + v, 0);
    expect(taskRows(c), "the remember's task rows are counted").toBeGreaterThan(0);
    expect(taskRows(d), "rows of the task table written by the recall").toBe(taskRows(c));
    expect(d[USAGE_COUNTERS.activeMs]).toBeGreaterThan(c[USAGE_COUNTERS.activeMs] ?? 0);
  });

  it("keeps no lifetime counters without the var; the day's usage counts D1 rows either way", async () => {
    await runInDurableObject(stubOf(freshAgent("plain")), async (_instance, ctx) => {
      const state = new AgentState(ctx.storage, env, AGENT_TASK_HOOKS);
      expect(state.usage).toBeUndefined();
      // Wrapped for the tenant's usage per day (src/agent/tenant-terms.ts), not the bindings themselves.
      expect(state.network.d1Shards.primary).not.toBe(env.DB);
      await state.network.d1Shards.primary
        .prepare("INSERT OR REPLACE INTO tenants (tenant_id, updated_at) VALUES ('usage-metering', ?)")
        .bind(Date.now())
        .run();
      const rows = state.terms.usage.unreported();
      expect(rows.find((r) => r.metric === "d1_rows_written")?.value).toBeGreaterThanOrEqual(1);
      expect(state.meta.counters()).toEqual({});
      expect(state.storage).toBe(ctx.storage);
    });
  });
});
