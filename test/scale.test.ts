/**
 * Production at scale (docs/deploy.md, "Limits"): agents spread over two D1 shards (the local
 * configuration has DB and DB_2) with isolation across them, a full shard taking no new agents, an
 * agent of 50,000 nodes deleted in chunks that stay far below D1's 30-second query limit (a D1 that
 * enforces it, test/fakes/limited-d1.ts), the bounded drain that hands the rest of a backlog to a
 * fresh invocation, the cron's storage measurement and the deep health check.
 *
 * Runners driven here get a context whose alarm is a variable: each `runFromAlarm()` is one
 * invocation, and nothing else drains the agent meanwhile.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AgentState } from "../src/agent/agent-state";
import { MemoryAgent } from "../src/agent/memory-agent";
import { deleteAgentTask } from "../src/operations/delete-agent/task";
import { enqueueTask } from "../src/agent/agent-tasks";
import { DELETE_CHUNKS_PER_SLICE, DELETE_LINKS_PER_CHUNK, DELETE_NODES_PER_CHUNK } from "../src/config/limits";
import { runScheduled } from "../src/scheduled";
import { AgentRegistry } from "../src/storage/agent-registry";
import { storeKey } from "../src/storage/api-keys";
import { createDb } from "../src/storage/db";
import { FTS_AGENT_STRIDE } from "../src/storage/fts-repo";
import { agentRows, call, drainAlarms, freshAgent, json, rememberAndWait, stubOf } from "./helpers";
import { ownRunner } from "./agent-access";
import { LimitedD1 } from "./fakes/limited-d1";
import { insertLinkRowsSql } from "./link-rows";

/** Inside the agent's object, with no alarm of its own left to drain it behind the test's back. */
async function inAgent<T>(agent: string, run: (state: AgentState, ctx: DurableObjectState) => Promise<T>): Promise<T> {
  return runInDurableObject(stubOf(agent), async (instance: MemoryAgent, ctx) => {
    await ctx.storage.deleteAlarm();
    return run(MemoryAgent.testAccess(instance).state, ctx);
  });
}

const shardRow = (binding: string) =>
  env.DB.prepare("SELECT next_key, agents, full_at, used, checked_at FROM storage_shards WHERE kind = 'd1' AND binding = ?")
    .bind(binding)
    .first<{ next_key: number; agents: number; full_at: number | null; used: number | null; checked_at: number | null }>();

async function closeShard(binding: string): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO storage_shards (kind, binding, full_at, full_reason) VALUES ('d1', ?, 1, 'closed by the test') ON CONFLICT DO UPDATE SET full_at = 1, full_reason = 'closed by the test'",
  )
    .bind(binding)
    .run();
}

async function reopenShard(binding: string): Promise<void> {
  await env.DB.prepare("UPDATE storage_shards SET full_at = NULL, full_reason = NULL WHERE kind = 'd1' AND binding = ?")
    .bind(binding)
    .run();
}

async function count(db: D1Database, sql: string, ...values: unknown[]): Promise<number> {
  return (
    (
      await db
        .prepare(sql)
        .bind(...values)
        .first<{ n: number }>()
    )?.n ?? -1
  );
}

describe("agents spread over D1 shards", () => {
  it("land on both shards, the one with fewer agents first, each with a key of its shard; a full shard takes none", async () => {
    const agents = [freshAgent("spread"), freshAgent("spread"), freshAgent("spread"), freshAgent("spread")];
    for (const agent of agents) await rememberAndWait(agent, [{ role: "user", content: `${agent} remembers the Orion launch.` }]);
    const placed = await Promise.all(agents.map((a) => agentRows(a)));
    expect(new Set(placed.map((p) => p.shard))).toEqual(new Set(["DB", "DB_2"]));
    for (const { db, key, shard } of placed) {
      expect(await count(db, "SELECT count(*) AS n FROM nodes WHERE agent = ?", key)).toBeGreaterThan(0);
      const other = shard === "DB" ? env.DB_2 : env.DB;
      const ownKeys = placed.filter((p) => p.shard !== shard).map((p) => p.key);
      // The other shard holds nothing under this key unless an agent of its own has it.
      if (!ownKeys.includes(key)) expect(await count(other, "SELECT count(*) AS n FROM nodes WHERE agent = ?", key)).toBe(0);
    }
    const keys = placed.map((p) => `${p.shard}:${p.key}`);
    expect(new Set(keys).size).toBe(keys.length);

    await closeShard("DB_2");
    try {
      const onDb = freshAgent("closed-2");
      await rememberAndWait(onDb, [{ role: "user", content: "Only DB takes agents now." }]);
      expect((await agentRows(onDb)).shard).toBe("DB");
    } finally {
      await reopenShard("DB_2");
    }
    // DB_2 now has fewer agents: the next one goes there.
    const next = freshAgent("balance");
    await rememberAndWait(next, [{ role: "user", content: "Back to balancing." }]);
    expect((await agentRows(next)).shard).toBe("DB_2");
  });

  it("never give a new agent of the primary the key of an agent the previous release registered (key = registry id)", async () => {
    const legacy = (await env.DB.prepare("SELECT coalesce(max(id), 0) + 50 AS id FROM agents").first<{ id: number }>())?.id ?? 50;
    // The previous release, still rolling out, registers an agent: no key, so its key is its id.
    await env.DB.prepare(
      "INSERT INTO agents (id, tenant_id, agent_id, created_at, last_active_at) VALUES (?, 'legacy', 'old-release', 0, 0)",
    )
      .bind(legacy)
      .run();
    await closeShard("DB_2");
    try {
      const agent = freshAgent("after-legacy");
      await rememberAndWait(agent, [{ role: "user", content: "Registered after the previous release's agent." }]);
      const placed = await agentRows(agent);
      expect(placed.shard).toBe("DB");
      expect(placed.key).toBeGreaterThan(legacy);
    } finally {
      await reopenShard("DB_2");
      await env.DB.prepare("DELETE FROM agents WHERE id = ?").bind(legacy).run();
    }
  });

  it("keep tenants and agents apart across shards: the same key in both shards, the same agent id in two tenants", async () => {
    const key = "amk_test_shard_tenant";
    await storeKey(createDb(env.DB), key, "tenant-shards", "scale test", Date.now());
    const id = freshAgent("twin");
    // Both shards hand out the same fresh key next: ours goes to DB, theirs to DB_2.
    const fresh = 1_000 + Math.floor(Math.random() * 1_000);
    await env.DB.prepare(
      "INSERT INTO storage_shards (kind, binding, next_key) VALUES ('d1', 'DB', ?1), ('d1', 'DB_2', ?1) ON CONFLICT DO UPDATE SET next_key = excluded.next_key",
    )
      .bind(fresh)
      .run();
    await closeShard("DB_2");
    try {
      await rememberAndWait(id, [{ role: "user", content: "The kestrel nests above the quarry every spring.", id: "m1" }]);
    } finally {
      await reopenShard("DB_2");
    }
    const ours = await agentRows(id);
    expect(ours).toMatchObject({ shard: "DB", key: fresh });
    await closeShard("DB");
    let theirTask: string;
    try {
      const res = await call(`/v1/agents/${id}/remember`, {
        key,
        body: { messages: [{ role: "user", content: "Their kestrel ledger: the quarry sale closes Friday.", id: "m1" }] },
      });
      expect(res.status).toBe(202);
      theirTask = (await json<{ task_id: string }>(res)).task_id;
      const done = await json<{ status: string }>(await call(`/v1/agents/${id}/tasks/${theirTask}?wait_ms=30000`, { key }));
      expect(done.status).toBe("done");
    } finally {
      await reopenShard("DB");
    }
    const theirs = await agentRows(id, "tenant-shards");
    expect(theirs).toMatchObject({ shard: "DB_2", key: ours.key });

    // Identical keys and full-text rowid ranges, in two databases: nothing crosses.
    const search = async (apiKey: string | undefined) =>
      (
        await json<{ items: { content: string }[] }>(
          await call(`/v1/agents/${id}/search`, { key: apiKey, body: { query: "kestrel quarry", mode: "hybrid" } }),
        )
      ).items.map((i) => i.content);
    expect(await search(undefined)).toEqual(["The kestrel nests above the quarry every spring."]);
    expect(await search(key)).toEqual(["Their kestrel ledger: the quarry sale closes Friday."]);
    const recall = await call(`/v1/agents/${id}/recall`, { body: { keywords: ["ledger", "Friday", "sale"] } });
    expect(await recall.text()).not.toContain("ledger");
    const stats = async (apiKey: string | undefined) =>
      json<{ nodes: { total: number } }>(await call(`/v1/agents/${id}/stats`, { key: apiKey }));
    const theirNodes = (await stats(key)).nodes.total;
    expect(theirNodes).toBe(await count(env.DB_2, "SELECT count(*) AS n FROM nodes WHERE agent = ?", theirs.key));
    expect((await stats(undefined)).nodes.total).toBe(await count(env.DB, "SELECT count(*) AS n FROM nodes WHERE agent = ?", ours.key));
    const range = [ours.key * FTS_AGENT_STRIDE, (ours.key + 1) * FTS_AGENT_STRIDE - 1];
    expect(await count(env.DB, "SELECT count(*) AS n FROM nodes_fts WHERE rowid BETWEEN ? AND ?", ...range)).toBeGreaterThan(0);
    expect(await count(env.DB_2, "SELECT count(*) AS n FROM nodes_fts WHERE rowid BETWEEN ? AND ?", ...range)).toBeGreaterThan(0);

    // Deleting theirs leaves ours whole.
    const before = await search(undefined);
    expect((await call(`/v1/agents/${id}`, { method: "DELETE", key })).status).toBe(200);
    expect(await count(env.DB_2, "SELECT count(*) AS n FROM nodes WHERE agent = ?", theirs.key)).toBe(0);
    expect(await count(env.DB_2, "SELECT count(*) AS n FROM nodes_fts WHERE rowid BETWEEN ? AND ?", ...range)).toBe(0);
    expect(await search(undefined)).toEqual(before);
    expect(await count(env.DB, "SELECT count(*) AS n FROM nodes WHERE agent = ?", ours.key)).toBeGreaterThan(0);
  });

  it("the cron measures every shard; one past the fill ratio takes no new agents", async () => {
    await runScheduled(env, Date.now());
    for (const binding of ["DB", "DB_2"]) {
      const row = await shardRow(binding);
      expect(row?.used).toBeGreaterThan(0);
      expect(row?.checked_at).not.toBeNull();
    }
    await new AgentRegistry(env.DB).shards.recordMeasurement("d1", "DB_2", 9_000_000_000, 8_000_000_000, Date.now());
    try {
      expect((await shardRow("DB_2"))?.full_at).not.toBeNull();
      const agent = freshAgent("after-measure");
      await rememberAndWait(agent, [{ role: "user", content: "DB_2 is nearly full." }]);
      expect((await agentRows(agent)).shard).toBe("DB");
    } finally {
      await reopenShard("DB_2");
    }
  });
});

describe("deleting a large agent", () => {
  const NODES = 50_000;

  it("takes 50,000 nodes and 100,000 links away in chunks far below D1's 30-second limit, one slice per invocation", async () => {
    const agent = freshAgent("big");
    await rememberAndWait(agent, [{ role: "user", content: "A small start before the bulk rows arrive." }]);
    await drainAlarms(agent);
    const { db, key, shard } = await agentRows(agent);
    // The bulk of the agent, written straight into its shard: nodes 1000…, two links each, full-text rows.
    await db.batch([
      db
        .prepare(
          `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
           INSERT INTO nodes (agent, id, kind, content, original_length, phrase, keywords, source_message_ids, created_at)
           SELECT ?, 1000 + n, 'segment', 'bulk node ' || n, 12, 'bulk', '[]', '[]', 0 FROM seq`,
        )
        .bind(NODES, key),
      db
        .prepare(
          insertLinkRowsSql(`SELECT agent, id AS source, id + 1 AS target, '下文' AS relation, 0 AS level, 0 AS epoch, 0 AS created_at
             FROM nodes WHERE agent = ? AND id >= 1000
             UNION ALL SELECT agent, id, id + 2, '相关', 0, 0, 0 FROM nodes WHERE agent = ? AND id >= 1000`),
        )
        .bind(key, key),
      db
        .prepare("INSERT INTO nodes_fts (rowid, terms) SELECT ? + id, 'bulk node' FROM nodes WHERE agent = ? AND id >= 1000")
        .bind(key * FTS_AGENT_STRIDE, key),
    ]);
    const links = await count(db, "SELECT count(*) AS n FROM links WHERE agent = ?", key);
    const nodes = await count(db, "SELECT count(*) AS n FROM nodes WHERE agent = ?", key);
    expect(nodes).toBeGreaterThan(NODES);
    expect(links).toBeGreaterThan(2 * NODES);

    // D1 modelled at 10,000 rows read or written per second: 30 s is 300,000 rows in one statement.
    const limited = new LimitedD1(db, { rowsPerSecond: 10_000 });
    const result = await inAgent(agent, async (state, ctx) => {
      state.network.d1Shards = state.network.d1Shards.with({ [shard]: limited.binding });
      const { alarm, invoke } = ownRunner(state, ctx);
      const task = enqueueTask(state.queue, "deleteAgent", null, { now: Date.now() });
      await ctx.storage.sync();
      const chunksDone = () => (JSON.parse(state.queue.get(task.id)?.checkpoint ?? "null") as { chunks: number } | null)?.chunks;
      const perInvocation: number[] = [];
      let invocations = 0;
      let before = 0;
      for (;;) {
        await invoke();
        invocations += 1;
        const after = chunksDone();
        if (after !== undefined) perInvocation.push(after - before);
        before = after ?? before;
        if (alarm() === null || invocations > 100) break;
      }
      return { task: state.queue.get(task.id), invocations, perInvocation };
    });
    const chunks = Math.ceil(links / DELETE_LINKS_PER_CHUNK) + Math.ceil(nodes / DELETE_NODES_PER_CHUNK);
    // Each invocation did at most one slice of chunks; together they did them all.
    expect(result.invocations).toBeGreaterThanOrEqual(Math.ceil(chunks / DELETE_CHUNKS_PER_SLICE));
    expect(result.perInvocation.every((n) => n === DELETE_CHUNKS_PER_SLICE)).toBe(true);
    expect(result.task).toBeUndefined(); // done, and taken with the agent's queue up to it
    for (const table of ["nodes", "links", "entity_aliases"]) {
      expect(await count(db, `SELECT count(*) AS n FROM ${table} WHERE agent = ?`, key), table).toBe(0);
    }
    expect(
      await count(
        db,
        "SELECT count(*) AS n FROM nodes_fts WHERE rowid BETWEEN ? AND ?",
        key * FTS_AGENT_STRIDE,
        (key + 1) * FTS_AGENT_STRIDE - 1,
      ),
    ).toBe(0);
    expect(await count(env.DB, "SELECT count(*) AS n FROM agents WHERE agent_id = ?", agent)).toBe(0);
    // Every statement stayed far below the limit: under a second of simulated D1 time.
    expect(limited.longestMs).toBeLessThan(1_000);
    expect(limited.statements.length).toBeGreaterThanOrEqual(chunks);
  });

  it("one run of the deletion does one slice of chunks, then yields with its progress saved", async () => {
    const agent = freshAgent("sliced");
    await rememberAndWait(agent, [{ role: "user", content: "Alice met Bob in Lisbon. Carol and Dave came later." }]);
    await drainAlarms(agent);
    const { db, key } = await agentRows(agent);
    await db
      .prepare(
        `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 30000) ${insertLinkRowsSql(
          "SELECT ? AS agent, 1 AS source, 100000 + n AS target, '相关' AS relation, 0 AS level, 0 AS epoch, 0 AS created_at FROM seq",
        )}`,
      )
      .bind(key)
      .run();
    const outcome = await inAgent(agent, async (state) => {
      const task = enqueueTask(state.queue, "deleteAgent", null, { now: Date.now() });
      state.queue.markRunning(task.id, Date.now());
      const run = (checkpoint: string | null) =>
        deleteAgentTask.run(state, { id: task.id, seq: task.seq, position: task.position, payload: null, checkpoint, attempts: 1 });
      const first = await run(null);
      const saved = state.queue.get(task.id)?.checkpoint ?? null;
      return { first, saved, remaining: await count(db, "SELECT count(*) AS n FROM links WHERE agent = ?", key) };
    });
    expect(outcome.first).toEqual({ status: "yielded", reason: "time_slice" });
    expect(JSON.parse(outcome.saved ?? "null")).toMatchObject({
      chunks: DELETE_CHUNKS_PER_SLICE,
      links: DELETE_CHUNKS_PER_SLICE * DELETE_LINKS_PER_CHUNK,
    });
    expect(outcome.remaining).toBeGreaterThan(0);
  });
});

describe("the bounded drain", () => {
  it("hands the rest of a backlog to the next invocation, gives back a started task's attempt, and completes everything", async () => {
    const agent = freshAgent("backlog");
    await rememberAndWait(agent, [{ role: "user", content: "Orion ships on Monday." }]);
    await drainAlarms(agent);
    const outcome = await inAgent(agent, async (state, ctx) => {
      const ids = Array.from(
        { length: 23 },
        (_, i) => enqueueTask(state.queue, "updateConfig", { decay_rate: 0.5 + i / 100 }, { now: Date.now() }).id,
      );
      await ctx.storage.sync();
      const first = ownRunner(state, ctx);
      first.runner.drainBudget = { tasks: 5, ms: 60_000 };
      await first.invoke();
      const afterFirst = ids.map((id) => state.queue.get(id));
      const handedOver = { handovers: first.runner.handovers, alarm: first.alarm() };
      // The object is evicted between two invocations: a new runner (a new wake) continues.
      state.queue.recoverAfterWake(Date.now());
      const next = ownRunner(state, ctx);
      next.runner.drainBudget = { tasks: 5, ms: 60_000 };
      let invocations = 0;
      do {
        await next.invoke();
        invocations += 1;
      } while (next.alarm() !== null && invocations < 20);
      return { afterFirst, handedOver, invocations, handovers: next.runner.handovers, final: ids.map((id) => state.queue.get(id)) };
    });
    expect(outcome.afterFirst.filter((t) => t?.status === "done")).toHaveLength(5);
    // The sixth was started with the fifth's end; the handover put it back, its attempt unspent.
    expect(outcome.afterFirst[5]).toMatchObject({ status: "queued", attempts: 0 });
    expect(outcome.handedOver.handovers).toBe(1);
    expect(outcome.handedOver.alarm).not.toBeNull();
    expect(outcome.invocations).toBe(4); // 18 left, 5 per invocation
    expect(outcome.handovers).toBe(3);
    expect(outcome.final.every((t) => t?.status === "done" && t.attempts === 1)).toBe(true);
    expect((await json<{ decay_rate: number }>(await call(`/v1/agents/${agent}/config`))).decay_rate).toBeCloseTo(0.72, 10);
  });

  it("puts back only a task that is still running: a finished one stays finished", async () => {
    const agent = freshAgent("yield-guard");
    const outcome = await inAgent(agent, async (state) => {
      const now = Date.now();
      const done = enqueueTask(state.queue, "updateConfig", { decay_rate: 0.6 }, { now });
      const running = enqueueTask(state.queue, "updateConfig", { decay_rate: 0.7 }, { now });
      state.queue.markRunning(done.id, now);
      state.queue.complete(done.id, null, now);
      state.queue.markRunning(running.id, now);
      // The runner's handover re-queues the task it started from memory, without reading its row.
      state.queue.yieldInPlace(done.id);
      state.queue.yieldInPlace(running.id);
      return { done: state.queue.get(done.id), running: state.queue.get(running.id) };
    });
    expect(outcome.done).toMatchObject({ status: "done", attempts: 1 });
    expect(outcome.running).toMatchObject({ status: "queued", attempts: 0 });
  });
});

describe("the deep health check", () => {
  it("needs an API key; checks every shard, an embedding and a model call; the shallow check stays cheap and open", async () => {
    expect((await call("/v1/health?deep=1", { key: null })).status).toBe(401);
    const shallow = await call("/v1/health", { key: null });
    expect(shallow.status).toBe(200);
    expect(await json(shallow)).toEqual({ status: "ok", model_provider: "local", vector_provider: "local", database: "ok" });
    const res = await call("/v1/health?deep=1");
    expect(res.status).toBe(200);
    const deep = await json<{
      status: string;
      checks: {
        d1: { binding: string; ok: boolean; bytes?: number }[];
        embedding: { ok: boolean; dimensions: number };
        model: { ok: boolean };
        vector_indexes: unknown[];
      };
    }>(res);
    expect(deep.status).toBe("ok");
    // Every shard, the EU one included (wrangler.local.toml: D1_EU_SHARDS).
    expect(deep.checks.d1.map((s) => [s.binding, s.ok])).toEqual([
      ["DB", true],
      ["DB_2", true],
      ["DB_EU", true],
    ]);
    expect(deep.checks.d1.every((s) => s.bytes === undefined)).toBe(true);
    expect(deep.checks.embedding).toMatchObject({ ok: true, dimensions: 256 });
    expect(deep.checks.model.ok).toBe(true);
    expect(deep.checks.vector_indexes).toEqual([]);
    expect((await call("/v1/health?deep=yes")).status).toBe(400);
    expect((await call("/v1/health?t=1700000000", { key: null })).status).toBe(200);
  });
});
