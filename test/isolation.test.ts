/**
 * No tenant learns anything of another's data (docs/design.md §7, Isolation): not through the
 * full-text scores of an agent too large to cache (they come from its own statistics only), not
 * through full-text rowids that stop being exact (the registry refuses ids past the limit), and
 * not through node ids that would leave the agent's own rowid range (issue 28, finding 1).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SearchQuerySchema } from "../src/operations/search-memories/schemas";
import { runSearch } from "../src/operations/search-memories/task";
import { MAX_AGENT_UID, MAX_NODE_ID } from "../src/config/limits";
import { createDb } from "../src/storage/db";
import { storeKey } from "../src/storage/api-keys";
import { runBatch, type Statement } from "../src/storage/batch";
import { FtsRepo } from "../src/storage/fts-repo";
import { agentRows, call, drainAlarms, freshAgent, json, rememberAndWait, stubOf } from "./helpers";
import { expectEnvelope, untilRateLimited } from "./edge-helpers";
import { exportOf, fileOf, importInto } from "./transfer-helpers";
import { MemoryAgent } from "../src/agent/memory-agent";

/** Keyword search the way an agent too large to cache runs it: from D1 (FTS5 candidates). */
async function searchFromD1(agent: string, query: string) {
  return runInDurableObject(stubOf(agent), async (instance) => {
    const state = MemoryAgent.testAccess(instance).state;
    const graph = state.graph.bind(state);
    state.graph = async () => undefined;
    try {
      return await runSearch(state, SearchQuerySchema.parse({ query, mode: "keyword", top_k: 20, kinds: ["segment", "entity"] }));
    } finally {
      state.graph = graph;
    }
  });
}

describe("full-text scores", () => {
  it("of an agent served from D1 do not move when another tenant adds or deletes documents with the same words", async () => {
    const mine = freshAgent("fts-mine");
    await rememberAndWait(mine, [
      { role: "user", content: "The kestrel nests above the quarry every spring." },
      { role: "user", content: "Our quarry tour starts at nine." },
      { role: "user", content: "Bring binoculars for the birds." },
    ]);
    const before = await searchFromD1(mine, "kestrel quarry");
    expect(before.items.length).toBeGreaterThan(0);

    await storeKey(createDb(env.DB), "key-fts-other", "tenant-fts-other", "test", Date.now());
    const other = freshAgent("fts-other");
    const noisy = Array.from({ length: 40 }, (_, i) => ({
      role: "user" as const,
      content: `Kestrel sighting ${i}: a kestrel over the quarry again.`,
    }));
    const res = await call(`/v1/agents/${other}/remember`, { key: "key-fts-other", body: { messages: noisy } });
    expect(res.status).toBe(202);
    const { task_id } = await json<{ task_id: string }>(res);
    await call(`/v1/agents/${other}/tasks/${task_id}?wait_ms=30000`, { key: "key-fts-other" });
    expect(await searchFromD1(mine, "kestrel quarry")).toEqual(before);

    expect((await call(`/v1/agents/${other}`, { method: "DELETE", key: "key-fts-other" })).status).toBe(200);
    expect(await searchFromD1(mine, "kestrel quarry")).toEqual(before);
  });
});

describe("the agent registry", () => {
  it("refuses to register an agent when no D1 shard has a key left (503), writing nothing; a shard with keys takes it", async () => {
    await rememberAndWait(freshAgent("before-full"), [{ role: "user", content: "Some memory." }]);
    const saved = await env.DB.prepare("SELECT binding, next_key FROM storage_shards WHERE kind = 'd1'").all<{
      binding: string;
      next_key: number;
    }>();
    // Pretend every shard handed out the last key its full-text rowids can address.
    await env.DB.prepare(
      "INSERT INTO storage_shards (kind, binding, next_key) VALUES ('d1', 'DB', ?), ('d1', 'DB_2', ?) ON CONFLICT DO UPDATE SET next_key = excluded.next_key",
    )
      .bind(MAX_AGENT_UID + 1, MAX_AGENT_UID + 1)
      .run();
    try {
      const agent = freshAgent("too-many");
      const res = await call(`/v1/agents/${agent}/remember`, { body: { messages: [{ role: "user", content: "One agent too many." }] } });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).not.toBeNull();
      expect((await json<{ error: { code: string } }>(res)).error.code).toBe("unavailable");
      const row = await env.DB.prepare("SELECT count(*) AS n FROM agents WHERE agent_id = ?").bind(agent).first<{ n: number }>();
      expect(row?.n).toBe(0);
      const stats = await json<{ queue: { queued: number; done: number } }>(await call(`/v1/agents/${agent}/stats`));
      expect(stats.queue.queued + stats.queue.done).toBe(0);

      // DB_2 gets its keys back: the next agent goes there, whatever the counts say.
      const db2 = saved.results.find((r) => r.binding === "DB_2")?.next_key ?? 1;
      await env.DB.prepare("UPDATE storage_shards SET next_key = ? WHERE kind = 'd1' AND binding = 'DB_2'").bind(db2).run();
      const fits = freshAgent("fits-on-db2");
      await rememberAndWait(fits, [{ role: "user", content: "Registered on the shard with room." }]);
      expect((await agentRows(fits)).shard).toBe("DB_2");
    } finally {
      for (const r of saved.results) {
        await env.DB.prepare("UPDATE storage_shards SET next_key = ? WHERE kind = 'd1' AND binding = ?").bind(r.next_key, r.binding).run();
      }
      await env.DB.prepare(
        "UPDATE storage_shards SET next_key = max(next_key, (SELECT coalesce(max(d1_key), 0) + 1 FROM agents WHERE d1_shard = binding)) WHERE kind = 'd1'",
      ).run();
    }
    expect((await rememberAndWait(freshAgent("fits-again"), [{ role: "user", content: "Registered again." }])).status).toBe("done");
  });
});

/** Every row an agent holds in its D1 shard, table by table (the full-text rows by their rowid range). */
async function rowsOf(agent: string, tenantId = "dev") {
  const { db, key } = await agentRows(agent, tenantId);
  const all = async (query: string) => (await db.prepare(query).bind(key).all()).results;
  return {
    nodes: await all("SELECT * FROM nodes WHERE agent = ?1 ORDER BY id"),
    links: await all(
      "SELECT agent, source, target, relation, level, epoch, created_at FROM links WHERE agent = ?1 ORDER BY source, target, relation",
    ),
    aliases: await all("SELECT * FROM entity_aliases WHERE agent = ?1 ORDER BY key"),
    fts: await all("SELECT rowid, terms FROM nodes_fts WHERE rowid BETWEEN ?1 * 1073741824 AND (?1 + 1) * 1073741824 - 1 ORDER BY rowid"),
  };
}

/**
 * Registers `first` then `second` (each by a configuration write, under its tenant's key) on the
 * same D1 shard, with adjacent keys k and k + 1: the other shard is closed to new agents meanwhile.
 */
async function registerAdjacent(first: { agent: string; key: string }, second: { agent: string; key: string }) {
  const configure = (a: { agent: string; key: string }) =>
    call(`/v1/agents/${a.agent}/config`, { method: "PUT", key: a.key, body: { focus_limit: 5 } });
  expect((await configure(first)).status).toBe(200);
  const { shard, key } = await agentRows(first.agent, await tenantOf(first.key));
  const others = await env.DB.prepare("SELECT binding FROM storage_shards WHERE kind = 'd1' AND binding <> ? AND full_at IS NULL")
    .bind(shard)
    .all<{ binding: string }>();
  const closed = others.results.map((r) => r.binding);
  await env.DB.prepare("UPDATE storage_shards SET full_at = 1 WHERE kind = 'd1' AND binding IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(closed))
    .run();
  try {
    expect((await configure(second)).status).toBe(200);
  } finally {
    await env.DB.prepare("UPDATE storage_shards SET full_at = NULL WHERE kind = 'd1' AND binding IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(closed))
      .run();
  }
  const placed = await agentRows(second.agent, await tenantOf(second.key));
  expect(placed).toMatchObject({ shard, key: key + 1 });
  return { shard, keys: [key, key + 1] };
}

async function tenantOf(key: string): Promise<string> {
  if (key === "dev-key-local-only") return "dev";
  const row = await env.DB.prepare("SELECT tenant_id FROM api_keys WHERE key_hash = ?")
    .bind(
      [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)))]
        .map((b) => b.toString(16).padStart(2, "0"))
        .join(""),
    )
    .first<{ tenant_id: string }>();
  if (!row) throw new Error("unknown test key");
  return row.tenant_id;
}

describe("issue 28 finding 1: FTS rowid range", () => {
  it("an import at the node-id limit cannot reach the next agent of the shard: new memories are refused (409 naming the limit), the victim's search and rows stay, the attacker's export still works", async () => {
    await storeKey(createDb(env.DB), "key-attacker", "tenant-attacker", "test", Date.now());
    const attacker = { agent: freshAgent("attacker"), key: "key-attacker" };
    const victim = { agent: freshAgent("victim"), key: "dev-key-local-only" };
    await registerAdjacent(attacker, victim);
    await rememberAndWait(victim.agent, [
      { role: "user", content: "Mia grows kiwis in the greenhouse.", id: "v1" },
      { role: "user", content: "The greenhouse heater broke in March.", id: "v2" },
    ]);
    // The remember's compression cycle runs after its task: let it settle before the snapshot.
    await drainAlarms(victim.agent);
    const before = await rowsOf(victim.agent);
    expect(before.fts.length).toBeGreaterThan(0);
    const searchBefore = await searchFromD1(victim.agent, "kiwis greenhouse");
    expect(searchBefore.items.length).toBeGreaterThan(0);

    // The attack: the attacker's agent jumps to the last node id, then writes and deletes.
    const file = await fileOf([], { next_node_id: MAX_NODE_ID });
    const imported = await importInto(attacker.agent, file, {}, attacker.key);
    expect(imported.status, await imported.clone().text()).toBe(200);
    for (const content of ["ZEBRAPOISON one.", "ZEBRAPOISON two."]) {
      const res = await call(`/v1/agents/${attacker.agent}/memories`, { key: attacker.key, body: { content } });
      expect(res.status, await res.clone().text()).toBe(409);
      expect((await json<{ error: { message: string } }>(res)).error.message).toContain(String(MAX_NODE_ID));
    }
    const remember = await call(`/v1/agents/${attacker.agent}/remember`, {
      key: attacker.key,
      body: { messages: [{ role: "user", content: "ZEBRAPOISON three." }] },
    });
    expect(remember.status).toBe(409);
    for (const id of [MAX_NODE_ID + 2, MAX_NODE_ID + 3]) {
      const res = await call(`/v1/agents/${attacker.agent}/memories/${id}`, { method: "DELETE", key: attacker.key });
      expect(res.status).toBe(404);
    }
    expect(await rowsOf(victim.agent)).toEqual(before);
    expect(await searchFromD1(victim.agent, "kiwis greenhouse")).toEqual(searchBefore);
    expect((await searchFromD1(victim.agent, "ZEBRAPOISON")).items).toEqual([]);
    // The attacker's own export answers (its header names the next id).
    const { lines } = await exportOf(attacker.agent, attacker.key);
    expect(lines[0]).toMatchObject({ type: "header", next_node_id: MAX_NODE_ID });
  });

  it("the storage layer writes and deletes full-text rows only within the agent's rowid range, whatever the caller", async () => {
    // Keys far above any test agent's: agent 1000 and its neighbour 1001, with rows at the edges.
    const db = createDb(env.DB);
    const mine = new FtsRepo(db, 1000);
    const neighbour = new FtsRepo(db, 1001);
    for (const nodeId of [0, -1, MAX_NODE_ID + 1, MAX_NODE_ID + 2, 2 ** 31, 1.5]) {
      expect(() => mine.upsertStatements([{ nodeId, terms: "planted" }]), String(nodeId)).toThrow(/outside 1…1073741823/);
    }
    const run = (statements: Statement[]) => runBatch(env.DB, statements);
    await run([
      ...neighbour.upsertStatements([
        { nodeId: 1, terms: "neighbour one" },
        { nodeId: 2, terms: "neighbour two" },
      ]),
    ]);
    await run([...mine.upsertStatements([{ nodeId: MAX_NODE_ID, terms: "mine last" }])]);
    // Ids past the range would be the neighbour's nodes 0, 1 and 2: nothing of the neighbour goes.
    await run([mine.deleteStatement([MAX_NODE_ID + 1, MAX_NODE_ID + 2, MAX_NODE_ID + 3, 0, -1])]);
    const rows = await env.DB.prepare("SELECT rowid, terms FROM nodes_fts WHERE rowid BETWEEN ? AND ? ORDER BY rowid")
      .bind(1000 * 2 ** 30, 1002 * 2 ** 30 - 1)
      .all<{ rowid: number; terms: string }>();
    expect(rows.results).toEqual([
      { rowid: 1000 * 2 ** 30 + MAX_NODE_ID, terms: "mine last" },
      { rowid: 1001 * 2 ** 30 + 1, terms: "neighbour one" },
      { rowid: 1001 * 2 ** 30 + 2, terms: "neighbour two" },
    ]);
    await run([mine.deleteStatement([MAX_NODE_ID]), neighbour.deleteAllStatement()]);
  });

  it("two agents adjacent on one shard (keys k and k + 1): every write of one leaves each table's rows of the other as they were", async () => {
    const a = { agent: freshAgent("adjacent-a"), key: "dev-key-local-only" };
    const b = { agent: freshAgent("adjacent-b"), key: "dev-key-local-only" };
    await registerAdjacent(a, b);
    for (const agent of [a.agent, b.agent]) {
      await rememberAndWait(agent, [
        { role: "user", content: "Bobby fixed the login page on Friday.", id: "x1" },
        { role: "user", content: "Robert reviewed the login fix.", id: "x2" },
      ]);
      await drainAlarms(agent);
    }
    const rowsOfB = await rowsOf(b.agent);
    for (const table of ["nodes", "links", "fts"] as const) expect(rowsOfB[table].length, table).toBeGreaterThan(0);
    // Every kind of write on A: create, update, link, merge (aliases), forget, purge, compress, delete.
    const A = `/v1/agents/${a.agent}`;
    const created = await json<{ node_id: number }>(await call(`${A}/memories`, { body: { content: "Bobby likes green tea." } }));
    const updated = await json<{ node_id: number }>(
      await call(`${A}/memories/${created.node_id}`, { method: "PATCH", body: { content: "Bobby likes jasmine tea." } }),
    );
    expect((await call(`${A}/links`, { body: { source: updated.node_id, target: 1, relation: "related" } })).status).toBe(200);
    const focus = await json<{ focus: { node_id: number; key: string }[] }>(await call(`${A}/focus`));
    const bobby = focus.focus.find((f) => f.key === "bobby")?.node_id;
    const robert = focus.focus.find((f) => f.key === "robert")?.node_id;
    expect((await call(`${A}/entities/${bobby}/merge`, { body: { into: robert } })).status).toBe(200);
    expect((await rowsOf(a.agent)).aliases.length).toBeGreaterThan(0);
    expect((await call(`${A}/memories/1`, { method: "DELETE" })).status).toBe(200);
    expect((await call(`${A}/memories/${updated.node_id}?purge=true`, { method: "DELETE" })).status).toBe(200);
    expect((await call(`${A}/compress`, { body: { cycles: 3 } })).status).toBe(202);
    await call(`${A}/stats?wait_ms=30000`);
    // A's own full-text rows are exactly its nodes, within its range.
    const rowsOfA = await rowsOf(a.agent);
    expect(rowsOfA.fts.map((r) => Number(r.rowid))).toEqual(rowsOfA.nodes.map((n) => Number(n.id) + Number(n.agent) * 2 ** 30));
    expect(await rowsOf(b.agent)).toEqual(rowsOfB);
    expect((await call(A, { method: "DELETE" })).status).toBe(200);
    expect(await rowsOf(b.agent)).toEqual(rowsOfB);
  });
});

describe("issue 28 finding 16: deep health shows shared figures", () => {
  it("GET /v1/health?deep=1 shows a tenant nothing that moves with another tenant's writes", async () => {
    // Its own tenant: the deep check is limited to 3 a minute per tenant, and other files ask it as
    // the default tenant in the same minute.
    const stamp = Date.now().toString(36);
    await storeKey(createDb(env.DB), `key-health-self-${stamp}`, `tenant-health-self-${stamp}`, "test", Date.now());
    const deep = async () => {
      const res = await call("/v1/health?deep=1", { key: `key-health-self-${stamp}` });
      expect(res.status).toBe(200);
      // Timings are the caller's own round trips: left out of the comparison.
      return JSON.stringify(await res.json(), (key, value: unknown) => (key === "ms" ? undefined : value));
    };
    const before = await deep();
    await storeKey(createDb(env.DB), "key-health-other", "tenant-health-other", "test", Date.now());
    const other = freshAgent("health-other");
    const many = Array.from({ length: 60 }, (_, i) => ({
      role: "user" as const,
      content: `Note ${i}: the ledger grows by another page of figures.`,
    }));
    const res = await call(`/v1/agents/${other}/remember`, { key: "key-health-other", body: { messages: many } });
    const { task_id } = await json<{ task_id: string }>(res);
    await call(`/v1/agents/${other}/tasks/${task_id}?wait_ms=30000`, { key: "key-health-other" });
    expect(await deep()).toBe(before);
    expect(before).not.toMatch(/"bytes"|"vectors"|"processed_up_to"/);
  });
});

describe("issue 34 finding 16: the deep health check costs model calls without limit", () => {
  it("one tenant's GET /v1/health?deep=1 in a loop is refused (429 rate_limited, Retry-After) after 3 a minute; another tenant's is not", async () => {
    const stamp = Math.random().toString(36).slice(2, 8);
    await storeKey(createDb(env.DB), `key-deep-a-${stamp}`, `tenant-deep-a-${stamp}`, "test", Date.now());
    await storeKey(createDb(env.DB), `key-deep-b-${stamp}`, `tenant-deep-b-${stamp}`, "test", Date.now());
    const refused = await untilRateLimited(() => call("/v1/health?deep=1", { key: `key-deep-a-${stamp}` }), 3, 200);
    expect(refused.headers.get("Retry-After")).toBe("60");
    const envelope = await expectEnvelope(refused, 429, "rate_limited");
    expect(envelope?.error.message).toMatch(/too often/);
    expect((await call("/v1/health?deep=1", { key: `key-deep-b-${stamp}` })).status).toBe(200);
  });
});
