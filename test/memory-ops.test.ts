/**
 * Memory operations (docs/design.md §11): explicit memories, reads and listings, updates by
 * supersession, forgetting and purging, explicit links, feedback (reinforcement), entity merges;
 * their bad inputs (nothing written) and their isolation between agents and tenants.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../src/storage/db";
import { storeKey } from "../src/storage/api-keys";
import { FTS_AGENT_STRIDE } from "../src/storage/fts-repo";
import { agentRows, agentUid, call, drainAlarms, freshAgent, json, recallText, rememberAndWait, stubOf } from "./helpers";
import { MemoryAgent } from "../src/agent/memory-agent";

interface LinkView {
  source: number;
  target: number;
  relation: string;
  strength: number;
  pinned: boolean;
  dangling: boolean;
}

interface MemoryView {
  node_id: number;
  kind: string;
  name: string | null;
  content: string;
  source_task_id: string | null;
  source_message_ids: string[];
  message_time: number | null;
  superseded_by: number | null;
  meta: Record<string, unknown> | null;
  importance: number;
  aliases: { key: string; name: string }[];
  conflicts_with: number[];
  history: { node_id: number; content: string; superseded_by: number | null }[];
  links: { outgoing: LinkView[]; incoming: LinkView[] };
}

interface ListItem {
  node_id: number;
  kind: string;
  content: string;
  superseded_by: number | null;
  importance: number;
}

interface Stats {
  nodes: { total: number; segments: number; entities: number };
  links: { total: number; dangling: number };
  counters: Record<string, number>;
  queue: Record<string, number>;
}

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

const REFERENCE = Date.UTC(2025, 10, 5, 10, 0, 0); // Wednesday 2025-11-05

const stats = async (agent: string) => json<Stats>(await call(`/v1/agents/${agent}/stats?wait_ms=30000`));

const memory = async (agent: string, id: number) => call(`/v1/agents/${agent}/memories/${id}`);

const memoryView = async (agent: string, id: number) => {
  const res = await memory(agent, id);
  expect(res.status).toBe(200);
  return json<MemoryView>(res);
};

const post = (agent: string, body: unknown, headers: Record<string, string> = {}) =>
  call(`/v1/agents/${agent}/memories`, { body, headers: { "Content-Type": "application/json", ...headers } });

async function written(agent: string, body: unknown): Promise<{ node_id: number; content: string; entities: string[] }> {
  const res = await post(agent, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}

const list = async (agent: string, query = "") =>
  json<{ items: ListItem[]; next_cursor: string | null }>(await call(`/v1/agents/${agent}/memories${query}`));

const search = async (agent: string, query: string, mode: string) =>
  json<{ items: { node_id: number; content: string; conflicts_with: number[] }[] }>(
    await call(`/v1/agents/${agent}/search`, { body: { query, mode, kinds: ["segment", "memory"] } }),
  );

/** The id of the entity stored under `key` (D1). */
async function entityId(agent: string, key: string): Promise<number> {
  const { db, key: rowsKey } = await agentRows(agent);
  const row = await db
    .prepare("SELECT id FROM nodes WHERE agent = ? AND kind = 'entity' AND name = ?")
    .bind(rowsKey, key)
    .first<{ id: number }>();
  if (!row) throw new Error(`no entity ${key}`);
  return row.id;
}

describe("explicit memories", () => {
  it("writes a memory from text: relative times resolved, kind memory, provenance, meta, one compression cycle after", async () => {
    const agent = freshAgent("mem-text");
    const res = await post(agent, { content: "Alice had ramen with Bob yesterday.", timestamp: REFERENCE / 1000 });
    expect(res.status).toBe(201);
    const created = await json<{ node_id: number; content: string; task_id: string; status: string; entities: string[] }>(res);
    expect(created).toMatchObject({ content: "Alice had ramen with Bob yesterday (2025-11-04).", status: "done" });
    expect(created.entities).toEqual(expect.arrayContaining(["Alice", "Bob"]));
    const view = await memoryView(agent, created.node_id);
    expect(view).toMatchObject({
      kind: "memory",
      source_task_id: created.task_id,
      source_message_ids: [],
      message_time: REFERENCE,
      superseded_by: null,
    });
    expect(view.meta).toMatchObject({
      importance: 0.5,
      language: "en",
      resolved_times: [{ expression: "yesterday", value: "2025-11-04", unit: "day" }],
    });
    expect(view.history).toEqual([expect.objectContaining({ node_id: created.node_id, superseded_by: null })]);
    await drainAlarms(agent);
    expect((await stats(agent)).counters).toMatchObject({ memories_written: 1, cycles: 1 });
    // Found like any memory.
    // An English agent: English labels without a locale (docs/design.md, "The labels' language").
    expect(await recallText(agent, { keywords: ["ramen"] })).toContain("[memory] Alice had ramen with Bob yesterday (2025-11-04).");
  });

  it("writes seed 003's structured form in Chinese and English; importance is the stored strength to subject and object", async () => {
    const agent = freshAgent("mem-structured");
    // No compression cycle after it: the levels are read at the clock they were written at.
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } });
    const zh = await written(agent, {
      subject: "小明",
      memory_type: "事实",
      topic: "喜好",
      object: "打篮球",
      attributes: { 时间: "昨天" },
      importance: 0.8,
      timestamp: "2025-11-05T10:00:00Z",
    });
    expect(zh.content).toBe("小明的喜好是打篮球（时间：2025-11-04）");
    expect(zh.entities).toEqual(expect.arrayContaining(["小明", "打篮球"]));
    const view = await memoryView(agent, zh.node_id);
    expect(view.meta).toMatchObject({
      memory_type: "fact",
      subject: "小明",
      topic: "喜好",
      object: "打篮球",
      attributes: { 时间: "2025-11-04" },
      importance: 0.8,
    });
    // The stored levels of the memory's links to its subject and object hold the importance (the
    // focus pins them at 1 while the entities are in it, like every link: docs/design.md §3).
    const clock = await runInDurableObject(stubOf(agent), (instance) => MemoryAgent.testAccess(instance).state.meta.clock());
    const subject = await entityId(agent, "小明");
    const object = await entityId(agent, "打篮球");
    const shard = await agentRows(agent);
    const rows = await shard.db
      .prepare("SELECT target, level FROM links WHERE agent = ? AND source = ? AND target IN (?, ?)")
      .bind(shard.key, zh.node_id, subject, object)
      .all<{ target: number; level: number }>();
    expect(rows.results).toHaveLength(2);
    for (const row of rows.results) expect(Math.exp(row.level - clock)).toBeCloseTo(0.8, 9);
    const en = await written(agent, {
      subject: "Alice",
      memory_type: "event",
      topic: "moved to",
      object: "Berlin",
      attributes: { time: "last Friday" },
      timestamp: REFERENCE,
    });
    expect(en.content).toBe("Alice moved to Berlin on 2025-10-31");
  });

  it("refuses bad input with 400 and writes nothing", async () => {
    const agent = freshAgent("mem-bad");
    const bad: unknown[] = [
      {},
      { content: "" },
      { content: "   " },
      { content: "x", subject: "A", memory_type: "fact", topic: "t" },
      { subject: "A", memory_type: "fact" },
      { subject: "A", memory_type: "story", topic: "t" },
      { content: "x", importance: 1.5 },
      { content: "x", importance: -0.1 },
      { content: "x", color: "red" },
      { content: "bad \ud800 surrogate" },
      { content: "x", timestamp: "yesterday" },
      { subject: "A", memory_type: "fact", topic: "t", attributes: { time: 3 } },
    ];
    for (const body of bad) {
      const res = await post(agent, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json<ErrorBody>(res)).error.code).toBe("validation_failed");
    }
    expect((await post(agent, { content: "x".repeat(32_001) })).status).toBe(413);
    const after = await stats(agent);
    expect(after.nodes.total).toBe(0);
    expect(after.queue).toMatchObject({ queued: 0, done: 0, failed: 0 });
    expect(await agentUid(agent)).toBeUndefined();
  });

  it("an Idempotency-Key retry answers the first memory and writes nothing; another body with the key is refused", async () => {
    const agent = freshAgent("mem-idem");
    const first = await post(agent, { content: "Grace fixed the login bug." }, { "Idempotency-Key": "mem-1" });
    const again = await post(agent, { content: "Grace fixed the login bug." }, { "Idempotency-Key": "mem-1" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect((await json<{ node_id: number }>(again)).node_id).toBe((await json<{ node_id: number }>(first)).node_id);
    expect((await post(agent, { content: "Something else." }, { "Idempotency-Key": "mem-1" })).status).toBe(422);
    expect((await stats(agent)).counters.memories_written).toBe(1);
  });

  it("merges singular and plural names into one entity, the other kept as an alias", async () => {
    const agent = freshAgent("mem-plural");
    await written(agent, { subject: "Alice", memory_type: "fact", topic: "hobby", object: "Wedding Photos" });
    const second = await written(agent, { subject: "Bob", memory_type: "fact", topic: "job", object: "wedding photo" });
    expect(second.entities).toContain("Wedding Photos");
    const shard = await agentRows(agent);
    const entities = await shard.db
      .prepare("SELECT name FROM nodes WHERE agent = ? AND kind = 'entity' AND name LIKE '%photo%'")
      .bind(shard.key)
      .all<{ name: string }>();
    expect(entities.results.map((r) => r.name)).toEqual(["wedding photos"]);
    const view = await memoryView(agent, await entityId(agent, "wedding photos"));
    expect(view.aliases).toEqual([{ key: "wedding photo", name: "wedding photo" }]);
    // Possessives and case meet the same entity without an alias (src/language/entities/entity-key.ts).
    await written(agent, { subject: "Carol", memory_type: "fact", topic: "favourite", object: "WEDDING PHOTOS'S" });
    expect((await memoryView(agent, view.node_id)).aliases).toHaveLength(1);
  });
});

describe("listing memories", () => {
  it("pages newest first with a stable cursor, by kind, never entities, superseded versions only when asked", async () => {
    const agent = freshAgent("list");
    await rememberAndWait(agent, [{ role: "user", content: "Alice planted tomatoes in the spring garden." }]);
    await written(agent, { content: "Bob repairs bicycles on weekends." });
    await written(agent, { content: "Carol teaches chemistry at the college." });
    const explicit = await written(agent, { content: "Dave keeps bees." });
    const all = await list(agent);
    // The remember's episode (docs/design.md §12) is listed too, after the explicit memories written later.
    expect(all.items.map((i) => i.kind)).toEqual(["memory", "memory", "memory", "episode", "segment"]);
    expect(all.items.map((i) => i.node_id)).toEqual([...all.items.map((i) => i.node_id)].sort((a, b) => b - a));
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: ListItem[]; next_cursor: string | null } = await list(agent, `?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.items.map((i) => i.node_id));
      cursor = page.next_cursor;
      // A memory written meanwhile does not shift the pages still to come.
      if (seen.length === 1) await written(agent, { content: "Erin sings." });
    } while (cursor);
    expect(seen).toEqual(all.items.map((i) => i.node_id));
    const memories = (await list(agent, "?kind=memory")).items.map((i) => i.node_id);
    expect(memories).toHaveLength(4);
    expect(memories[1]).toBe(explicit.node_id);
    expect((await list(agent, "?kind=segment")).items.map((i) => i.kind)).toEqual(["segment"]);
    expect((await list(agent, "?kind=segment,memory&limit=200")).items).toHaveLength(5);
    for (const query of ["?kind=entity", "?limit=0", "?limit=201", "?cursor=nope", "?include_superseded=yes", "?other=1"]) {
      expect((await call(`/v1/agents/${agent}/memories${query}`)).status, query).toBe(400);
    }
    const updated = await call(`/v1/agents/${agent}/memories/${explicit.node_id}`, {
      method: "PATCH",
      body: { content: "Dave keeps bees and goats." },
    });
    expect(updated.status).toBe(200);
    const current = await list(agent, "?kind=memory");
    expect(current.items.map((i) => i.content)).not.toContain("Dave keeps bees.");
    expect(
      (await list(agent, "?kind=memory&include_superseded=true")).items.find((i) => i.node_id === explicit.node_id)?.superseded_by,
    ).toBe((await json<{ node_id: number }>(updated)).node_id);
  });
});

describe("updating a memory", () => {
  it("supersedes: recall, search and the listing show the new content only, history both, the entity hub reaches the new node", async () => {
    const agent = freshAgent("update");
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } });
    await rememberAndWait(agent, [
      { role: "user", content: "Zoe keeps her savings at Harbor Bank.", id: "u1" },
      { role: "user", content: "The weather was grey all week.", id: "u2" },
    ]);
    const [old] = (await list(agent, "?kind=segment")).items.filter((i) => i.content.includes("Harbor"));
    if (!old) throw new Error("no memory");
    const res = await call(`/v1/agents/${agent}/memories/${old.node_id}`, {
      method: "PATCH",
      body: { content: "Zoe keeps her savings at Summit Credit Union." },
    });
    expect(res.status).toBe(200);
    const updated = await json<{ node_id: number; supersedes: number; links_moved: number }>(res);
    expect(updated).toMatchObject({ supersedes: old.node_id });
    expect(updated.links_moved).toBeGreaterThan(0);

    const text = await recallText(agent, { keywords: ["Zoe", "savings"] });
    expect(text).toContain("Summit Credit Union");
    expect(text).not.toContain("Harbor");
    for (const mode of ["keyword", "vector", "hybrid"]) {
      const items = (await search(agent, "Zoe savings bank", mode)).items;
      expect(
        items.map((i) => i.node_id),
        mode,
      ).toContain(updated.node_id);
      expect(
        items.map((i) => i.node_id),
        mode,
      ).not.toContain(old.node_id);
    }
    expect((await search(agent, "Harbor Bank", "keyword")).items).toEqual([]);
    expect((await list(agent)).items.map((i) => i.node_id)).not.toContain(old.node_id);

    const fresh = await memoryView(agent, updated.node_id);
    expect(fresh.links.outgoing).toContainEqual(expect.objectContaining({ target: old.node_id, relation: "更正", strength: 1 }));
    expect(fresh.meta).toEqual({ supersedes: old.node_id });
    const history = await json<{ history: { node_id: number; superseded_by: number | null }[] }>(
      await call(`/v1/agents/${agent}/memories/${updated.node_id}/history`),
    );
    expect(history.history).toEqual([
      expect.objectContaining({ node_id: old.node_id, superseded_by: updated.node_id }),
      expect.objectContaining({ node_id: updated.node_id, superseded_by: null }),
    ]);
    const stale = await memoryView(agent, old.node_id);
    expect(stale.superseded_by).toBe(updated.node_id);
    expect(stale.content).toBe("Zoe keeps her savings at Harbor Bank.");
    // The old version keeps the links of the conversation it was said in (下文 to the next segment,
    // 属于 its episode) and gains 被更正; the new one takes over only the entity links (DESIGN §11).
    expect(stale.links.outgoing.map((l) => l.relation).sort()).toEqual(["下文", "属于", "被更正"].sort());
    expect(fresh.links.outgoing.map((l) => l.relation).filter((r) => r !== "关于" && r !== "相关")).toEqual(["更正"]);
    // The entity hub Zoe reaches the new node, no longer the old one.
    const zoe = await memoryView(agent, await entityId(agent, "zoe"));
    const neighbours = [...zoe.links.outgoing.map((l) => l.target), ...zoe.links.incoming.map((l) => l.source)];
    expect(neighbours).toContain(updated.node_id);
    expect(neighbours).not.toContain(old.node_id);

    // An old version, an entity, an unknown node; bad bodies.
    const again = await call(`/v1/agents/${agent}/memories/${old.node_id}`, { method: "PATCH", body: { content: "x" } });
    expect(again.status).toBe(409);
    expect((await json<ErrorBody>(again)).error.details).toEqual({ superseded_by: updated.node_id });
    expect((await call(`/v1/agents/${agent}/memories/${zoe.node_id}`, { method: "PATCH", body: { content: "x" } })).status).toBe(409);
    expect((await call(`/v1/agents/${agent}/memories/999999`, { method: "PATCH", body: { content: "x" } })).status).toBe(404);
    const before = await stats(agent);
    for (const body of [{}, { content: "" }, { content: "x", kind: "memory" }]) {
      expect((await call(`/v1/agents/${agent}/memories/${updated.node_id}`, { method: "PATCH", body })).status).toBe(400);
    }
    expect((await stats(agent)).nodes).toEqual(before.nodes);
  });
});

describe("deleting a memory", () => {
  it("forgets at once (recall, search, listings) and leaves a trace; purge removes every trace and releases the message id", async () => {
    const agent = freshAgent("delete");
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } });
    await rememberAndWait(agent, [
      { role: "user", content: "Quentin planned the harbor regatta.", id: "d1" },
      { role: "user", content: "Quentin booked the lighthouse dinner.", id: "d2" },
      { role: "user", content: "Quentin thanked the harbor crew.", id: "d3" },
    ]);
    const items = (await list(agent, "?kind=segment")).items;
    const dinner = items.find((i) => i.content.includes("lighthouse"));
    const regatta = items.find((i) => i.content.includes("regatta"));
    if (!dinner || !regatta) throw new Error("missing memories");
    const res = await call(`/v1/agents/${agent}/memories/${dinner.node_id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ deleted: true, node_id: dinner.node_id, purged: false, nodes_deleted: [dinner.node_id] });
    expect((await memory(agent, dinner.node_id)).status).toBe(404);
    expect((await list(agent)).items.map((i) => i.node_id)).not.toContain(dinner.node_id);
    for (const mode of ["keyword", "vector", "hybrid"]) {
      expect(
        (await search(agent, "lighthouse dinner", mode)).items.map((i) => i.node_id),
        mode,
      ).not.toContain(dinner.node_id);
    }
    // A recall passing by: the regatta segment still links to what was forgotten (下文).
    const text = await recallText(agent, { keywords: ["regatta"] });
    expect(text).toContain("[forgotten]");
    expect(text).not.toContain("lighthouse");
    expect((await stats(agent)).links.dangling).toBeGreaterThan(0);
    expect((await call(`/v1/agents/${agent}/memories/${dinner.node_id}`, { method: "DELETE" })).status).toBe(404);

    // Purge: an updated memory with its history, every link into them, its message id.
    const patched = await json<{ node_id: number }>(
      await call(`/v1/agents/${agent}/memories/${regatta.node_id}`, {
        method: "PATCH",
        body: { content: "Quentin planned the autumn regatta." },
      }),
    );
    // The remember's episode summarises the regatta too: a purge takes it along.
    const [episode] = (await list(agent, "?kind=episode")).items;
    expect(episode?.content).toContain("regatta");
    const purge = await call(`/v1/agents/${agent}/memories/${patched.node_id}?purge=true`, { method: "DELETE" });
    expect(purge.status).toBe(200);
    const purged = await json<{ nodes_deleted: number[]; links_deleted: number; messages_released: number }>(purge);
    // With the versions and their episode, the entities only they named (issue 34 finding 2).
    expect(purged.nodes_deleted).toEqual(expect.arrayContaining([regatta.node_id, episode?.node_id, patched.node_id]));
    const regattaEntities = purged.nodes_deleted.filter((id) => ![regatta.node_id, episode?.node_id, patched.node_id].includes(id));
    expect(regattaEntities.length).toBeGreaterThan(0);
    expect(purged.links_deleted).toBeGreaterThan(0);
    expect(purged.messages_released).toBe(1);
    expect((await list(agent, "?kind=episode")).items).toEqual([]);
    // The memories, their history and episode are gone, and the entities only they named ("harbor
    // regatta"); "Quentin", whom other memories name, stays.
    const everywhere = await call(`/v1/agents/${agent}/search`, {
      body: { query: "regatta", mode: "keyword", kinds: ["segment", "memory", "episode", "entity"] },
    });
    expect((await json<{ items: unknown[] }>(everywhere)).items).toEqual([]);
    const { db, key: uid } = await agentRows(agent);
    const gone = [regatta.node_id, patched.node_id, episode?.node_id ?? 0, ...regattaEntities];
    // The right shard and key: the forgotten dinner is gone, the memories kept are there.
    expect(await db.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ? AND id = ?").bind(uid, dinner.node_id).first("n")).toBe(0);
    expect(await db.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ?").bind(uid).first("n")).toBeGreaterThan(0);
    for (const id of gone) {
      expect(await db.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ? AND id = ?").bind(uid, id).first("n")).toBe(0);
      expect(
        await db.prepare("SELECT count(*) AS n FROM links WHERE agent = ? AND (source = ? OR target = ?)").bind(uid, id, id).first("n"),
      ).toBe(0);
      expect(
        await db
          .prepare("SELECT count(*) AS n FROM nodes_fts WHERE rowid = ?")
          .bind(uid * FTS_AGENT_STRIDE + id)
          .first("n"),
      ).toBe(0);
    }
    const vectors = await runInDurableObject(stubOf(agent), (_instance, ctx) =>
      ctx.storage.sql
        .exec<{ node_id: number }>("SELECT node_id FROM vectors")
        .toArray()
        .map((r) => r.node_id),
    );
    expect(vectors).not.toContain(regatta.node_id);
    expect(vectors).not.toContain(patched.node_id);
    expect((await recallText(agent, { keywords: ["regatta"] })).includes("Quentin planned")).toBe(false);
    // The message can be remembered again; the dinner's (forgotten, not purged) cannot.
    const again = await rememberAndWait(agent, [
      { role: "user", content: "Quentin planned the harbor regatta.", id: "d1" },
      { role: "user", content: "Quentin booked the lighthouse dinner.", id: "d2" },
    ]);
    expect(again.result).toMatchObject({ segments: 1, messages_skipped: 1 });
    // Entities are not memories; bad queries.
    expect((await call(`/v1/agents/${agent}/memories/${await entityId(agent, "quentin")}`, { method: "DELETE" })).status).toBe(409);
    expect((await call(`/v1/agents/${agent}/memories/1?purge=yes`, { method: "DELETE" })).status).toBe(400);
    expect((await call(`/v1/agents/${agent}/memories/0`, { method: "DELETE" })).status).toBe(400);
  });
});

describe("explicit links", () => {
  it("links by id or by description, refuses an ambiguous description with its candidates, and unlinks", async () => {
    const agent = freshAgent("links");
    const sad = await written(agent, { content: "Yuki felt unhappy after the exam." });
    const broke = await written(agent, { content: "Yuki broke a plate in the kitchen." });
    const green = await written(agent, { content: "Yuki likes green tea." });
    const black = await written(agent, { content: "Yuki likes black tea." });

    const byId = await call(`/v1/agents/${agent}/links`, { body: { source: sad.node_id, target: broke.node_id, relation: "causes" } });
    expect(byId.status).toBe(200);
    expect(await json(byId)).toEqual({ source: sad.node_id, target: broke.node_id, relation: "导致", strength: 0.6 });
    const view = await memoryView(agent, sad.node_id);
    expect(view.links.outgoing).toContainEqual(expect.objectContaining({ target: broke.node_id, relation: "导致" }));
    expect(view.links.outgoing.find((l) => l.relation === "导致")?.strength).toBeCloseTo(0.6, 9);

    const byText = await call(`/v1/agents/${agent}/links`, {
      body: { source: "broke a plate in the kitchen", target: "unhappy after the exam", relation: "因为", strength: 0.9 },
    });
    expect(byText.status).toBe(200);
    expect(await json(byText)).toMatchObject({ source: broke.node_id, target: sad.node_id, relation: "因为", strength: 0.9 });

    const before = await stats(agent);
    const ambiguous = await call(`/v1/agents/${agent}/links`, {
      body: { source: "Yuki likes tea", target: sad.node_id, relation: "related" },
    });
    expect(ambiguous.status).toBe(409);
    const candidates = (await json<ErrorBody>(ambiguous)).error.details?.candidates as { node_id: number }[];
    expect(candidates.map((c) => c.node_id).sort()).toEqual([green.node_id, black.node_id].sort());
    expect((await stats(agent)).links.total).toBe(before.links.total);

    for (const [body, status] of [
      [{ source: sad.node_id, target: 999_999, relation: "causes" }, 404],
      [{ source: "quantum chromodynamics lecture", target: sad.node_id, relation: "cites" }, 404],
      [{ source: sad.node_id, target: sad.node_id, relation: "cites" }, 409],
      [{ source: sad.node_id, target: broke.node_id, relation: "loves" }, 400],
      [{ source: sad.node_id, target: broke.node_id, relation: "关于" }, 400],
      [{ source: sad.node_id, target: broke.node_id, relation: "causes", strength: 0 }, 400],
      [{ source: sad.node_id, target: broke.node_id, relation: "causes", weight: 1 }, 400],
      [{ source: sad.node_id, relation: "causes" }, 400],
    ] as const) {
      expect((await call(`/v1/agents/${agent}/links`, { body })).status, JSON.stringify(body)).toBe(status);
    }
    expect((await stats(agent)).links.total).toBe(before.links.total);

    const unlink = await call(`/v1/agents/${agent}/links?source=${sad.node_id}&target=${broke.node_id}&relation=causes`, {
      method: "DELETE",
    });
    expect(unlink.status).toBe(200);
    expect(await json(unlink)).toMatchObject({ deleted: true, relation: "导致" });
    expect((await memoryView(agent, sad.node_id)).links.outgoing.map((l) => l.relation)).not.toContain("导致");
    expect(
      (await call(`/v1/agents/${agent}/links?source=${sad.node_id}&target=${broke.node_id}&relation=causes`, { method: "DELETE" })).status,
    ).toBe(404);
    expect((await call(`/v1/agents/${agent}/links?source=${sad.node_id}&target=x&relation=causes`, { method: "DELETE" })).status).toBe(400);
  });
});

describe("feedback", () => {
  it("raises each outgoing link of a used memory by reinforce_step (capped at 1), once per compression cycle", async () => {
    const agent = freshAgent("feedback");
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false, focus_limit: 1 } });
    await rememberAndWait(agent, [
      { role: "user", content: "Ursula repaired the old clock." },
      { role: "user", content: "Victor painted the fence." },
    ]);
    // Twelve cycles: the first segment's links to its neighbour and to Ursula (no longer in the
    // focus of one) decay to 0.97^12 of where they started.
    await call(`/v1/agents/${agent}/compress`, { body: { cycles: 12 } });
    await drainAlarms(agent);
    const [ursula] = (await list(agent)).items.filter((i) => i.content.includes("Ursula"));
    if (!ursula) throw new Error("no memory");
    const before = await memoryView(agent, ursula.node_id);
    const unpinned = before.links.outgoing.filter((l) => !l.pinned);
    expect(unpinned.length).toBeGreaterThan(0);
    const res = await call(`/v1/agents/${agent}/feedback`, { body: { node_ids: [ursula.node_id, 999_999], used: true } });
    expect(res.status).toBe(200);
    const result = await json<{
      reinforced: { node_id: number; importance_before: number; importance_after: number }[];
      skipped: { node_id: number; reason: string }[];
    }>(res);
    const expected = before.importance + unpinned.reduce((sum, l) => sum + Math.min(1, l.strength + 0.3) - l.strength, 0);
    expect(result.reinforced).toEqual([
      { node_id: ursula.node_id, importance_before: expect.closeTo(before.importance, 9), importance_after: expect.closeTo(expected, 9) },
    ]);
    expect(result.skipped).toEqual([{ node_id: 999_999, reason: "not_found" }]);
    const after = await memoryView(agent, ursula.node_id);
    expect(after.importance).toBeCloseTo(expected, 9);
    for (const link of after.links.outgoing.filter((l) => !l.pinned)) {
      const was = unpinned.find((l) => l.target === link.target && l.relation === link.relation);
      expect(link.strength).toBeCloseTo(Math.min(1, (was?.strength ?? 0) + 0.3), 9);
    }
    // Once per cycle: a second report in the same cycle changes nothing.
    const again = await json<{ reinforced: unknown[]; skipped: { reason: string }[] }>(
      await call(`/v1/agents/${agent}/feedback`, { body: { node_ids: [ursula.node_id], used: true } }),
    );
    expect(again).toMatchObject({ reinforced: [], skipped: [{ reason: "already_reinforced" }] });
    expect((await memoryView(agent, ursula.node_id)).importance).toBeCloseTo(expected, 9);
    // Not used: nothing. After the next cycle: allowed again.
    expect(await json(await call(`/v1/agents/${agent}/feedback`, { body: { node_ids: [ursula.node_id], used: false } }))).toMatchObject({
      skipped: [{ reason: "not_used" }],
    });
    await call(`/v1/agents/${agent}/compress`, { body: { cycles: 1 } });
    await drainAlarms(agent);
    const next = await json<{ reinforced: unknown[] }>(
      await call(`/v1/agents/${agent}/feedback`, { body: { node_ids: [ursula.node_id], used: true } }),
    );
    expect(next.reinforced).toHaveLength(1);
    for (const body of [{ node_ids: [], used: true }, { node_ids: [1] }, { node_ids: [1], used: "yes" }, { node_ids: [0], used: true }]) {
      expect((await call(`/v1/agents/${agent}/feedback`, { body })).status).toBe(400);
    }
  });
});

describe("entity merges", () => {
  it("moves the absorbed entity's links to the survivor, keeps its name as an alias, and the focus follows", async () => {
    const agent = freshAgent("merge");
    // The long name first: an acronym mentioned after it is no candidate of the model (see below).
    await rememberAndWait(agent, [{ role: "user", content: "JavaScript bundles are too large." }]);
    await rememberAndWait(agent, [{ role: "user", content: "JS powers the checkout page." }]);
    const js = await entityId(agent, "js");
    const javascript = await entityId(agent, "javascript");
    const jsLinks = (await memoryView(agent, js)).links;
    const res = await call(`/v1/agents/${agent}/entities/${js}/merge`, { body: { into: javascript } });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ survivor: javascript, absorbed: js, aliases: ["JS"] });
    expect((await memory(agent, js)).status).toBe(404);
    const survivor = await memoryView(agent, javascript);
    expect(survivor.aliases).toEqual([{ key: "js", name: "JS" }]);
    const neighbours = new Set(survivor.links.outgoing.map((l) => l.target));
    for (const link of jsLinks.outgoing) expect(neighbours).toContain(link.target);
    const focus = await json<{ focus: { node_id: number }[] }>(await call(`/v1/agents/${agent}/focus`));
    expect(focus.focus.map((f) => f.node_id)).not.toContain(js);
    expect(focus.focus.map((f) => f.node_id)).toContain(javascript);
    // A later mention of the absorbed name meets the survivor.
    const later = await rememberAndWait(agent, [{ role: "user", content: "JS tests are flaky." }]);
    expect(later.result).toMatchObject({ entities_created: expect.any(Number) });
    const shard = await agentRows(agent);
    const names = await shard.db
      .prepare("SELECT name FROM nodes WHERE agent = ? AND kind = 'entity' AND name IN ('js', 'javascript')")
      .bind(shard.key)
      .all<{ name: string }>();
    expect(names.results.map((r) => r.name)).toEqual(["javascript"]);
    // Recall by the alias finds the memories of both names.
    expect(await recallText(agent, { keywords: ["checkout"] })).toContain("JS powers the checkout page.");
    const [segment] = (await list(agent)).items;
    for (const [path, body, status] of [
      [`/entities/${javascript}/merge`, { into: javascript }, 409],
      [`/entities/${segment?.node_id}/merge`, { into: javascript }, 409],
      [`/entities/999999/merge`, { into: javascript }, 404],
      [`/entities/${javascript}/merge`, {}, 400],
      [`/entities/${javascript}/merge`, { into: "x" }, 400],
    ] as const) {
      expect((await call(`/v1/agents/${agent}${path}`, { body })).status, path).toBe(status);
    }
  });
});

describe("entity names judged by the model", () => {
  it("a new name whose initialism is a known entity is judged; the same is one entity with an alias", async () => {
    const agent = freshAgent("same-entity");
    await rememberAndWait(agent, [{ role: "user", content: "JS powers the checkout page." }]);
    const task = await rememberAndWait(agent, [{ role: "user", content: "JavaScript bundles are too large." }]);
    // "JavaScript" is the known "JS"; only the compound "JavaScript bundles" is new.
    expect(task.result).toMatchObject({ entities_created: 1 });
    const js = await entityId(agent, "js");
    await expect(entityId(agent, "javascript")).rejects.toThrow();
    const view = await memoryView(agent, js);
    expect(view.aliases).toEqual([{ key: "javascript", name: "JavaScript" }]);
    // The one entity is about both memories.
    const about = view.links.outgoing.filter((l) => l.relation === "关于").map((l) => l.target);
    const segments = (await list(agent, "?kind=segment")).items.map((i) => i.node_id);
    expect(segments).toHaveLength(2);
    for (const id of segments) expect(about).toContain(id);
    // Through an explicit memory too: "New York City" meets the known "NYC".
    await written(agent, { content: "NYC has a new bike lane." });
    await written(agent, { content: "New York City opened the bike lane on Monday." });
    const nyc = await memoryView(agent, await entityId(agent, "nyc"));
    expect(nyc.aliases).toEqual([{ key: "new york city", name: "New York City" }]);
    expect(nyc.links.outgoing.filter((l) => l.relation === "关于")).toHaveLength(2);
  });
});

describe("isolation", () => {
  it("never reaches another agent's or tenant's memory: their ids answer 404 (or are skipped), never data", async () => {
    const mine = freshAgent("iso-mine");
    const other = freshAgent("iso-other");
    const secret = await written(other, { content: "Wanda's vault code is 4711." });
    await rememberAndWait(other, [{ role: "user", content: "Wanda met Xavier at the vault." }]);
    const wanda = await entityId(other, "wanda");
    await written(mine, { content: "A harmless note about gardening." });
    const before = await stats(other);
    const path = `/v1/agents/${mine}`;
    expect((await call(`${path}/memories/${secret.node_id + 100}`)).status).toBe(404);
    // Ids of the other agent's nodes that do not exist in mine.
    const foreign = secret.node_id + 50;
    expect((await call(`${path}/memories/${foreign}`)).status).toBe(404);
    expect((await call(`${path}/memories/${foreign}/history`)).status).toBe(404);
    expect((await call(`${path}/memories/${foreign}`, { method: "PATCH", body: { content: "stolen" } })).status).toBe(404);
    expect((await call(`${path}/memories/${foreign}`, { method: "DELETE" })).status).toBe(404);
    expect((await call(`${path}/links`, { body: { source: foreign, target: 1, relation: "cites" } })).status).toBe(404);
    expect((await call(`${path}/links`, { body: { source: "Wanda's vault code", target: 1, relation: "cites" } })).status).toBe(404);
    expect((await call(`${path}/links?source=${foreign}&target=1&relation=cites`, { method: "DELETE" })).status).toBe(404);
    expect((await call(`${path}/entities/${wanda + 50}/merge`, { body: { into: wanda + 51 } })).status).toBe(404);
    expect(await json(await call(`${path}/feedback`, { body: { node_ids: [foreign], used: true } }))).toMatchObject({
      reinforced: [],
      skipped: [{ node_id: foreign, reason: "not_found" }],
    });
    // Refused before anything is queued: an agent that only ever got refused holds nothing at all.
    const untouched = freshAgent("iso-untouched");
    const at = `/v1/agents/${untouched}`;
    expect((await call(`${at}/memories/${secret.node_id}`, { method: "PATCH", body: { content: "x" } })).status).toBe(404);
    expect((await call(`${at}/memories/${secret.node_id}?purge=true`, { method: "DELETE" })).status).toBe(404);
    expect((await call(`${at}/links`, { body: { source: secret.node_id, target: 1, relation: "cites" } })).status).toBe(404);
    expect((await call(`${at}/links?source=1&target=2&relation=cites`, { method: "DELETE" })).status).toBe(404);
    expect((await call(`${at}/entities/${wanda}/merge`, { body: { into: wanda + 1 } })).status).toBe(404);
    expect(await agentUid(untouched)).toBeUndefined();
    expect(await stats(untouched)).toMatchObject({ nodes: { total: 0 }, queue: { queued: 0, running: 0, done: 0, failed: 0 } });
    const listing = await list(mine);
    expect(listing.items.map((i) => i.content)).toEqual(["A harmless note about gardening."]);
    expect(await stats(other)).toMatchObject({ nodes: before.nodes, links: before.links });

    // Another tenant with the same agent id sees its own (empty) agent.
    await storeKey(createDb(env.DB), "key-ops-other", "tenant-ops-other", "test", Date.now());
    const key = "key-ops-other";
    expect((await call(`/v1/agents/${other}/memories/${secret.node_id}`, { key })).status).toBe(404);
    expect((await call(`/v1/agents/${other}/memories/${secret.node_id}/history`, { key })).status).toBe(404);
    expect(await json(await call(`/v1/agents/${other}/memories`, { key }))).toEqual({ items: [], next_cursor: null });
    expect((await call(`/v1/agents/${other}/memories/${secret.node_id}`, { key, method: "PATCH", body: { content: "x" } })).status).toBe(
      404,
    );
    expect((await call(`/v1/agents/${other}/memories/${secret.node_id}`, { key, method: "DELETE" })).status).toBe(404);
    expect(
      (await call(`/v1/agents/${other}/links`, { key, body: { source: secret.node_id, target: wanda, relation: "cites" } })).status,
    ).toBe(404);
    expect((await call(`/v1/agents/${other}/entities/${wanda}/merge`, { key, body: { into: wanda } })).status).toBe(409);
    const exported = await (await call(`/v1/agents/${other}/export`, { key })).text();
    expect(exported).not.toContain("vault");
    expect(await stats(other)).toMatchObject({ nodes: before.nodes, links: before.links });
    expect((await call(`/v1/agents/${other}/memories`, { key, body: { content: "Tenant two's own note." } })).status).toBe(201);
    expect((await list(other)).items.map((i) => i.content)).not.toContain("Tenant two's own note.");
  });
});

describe("issue 28 finding 14: a superseded version can be deleted and linked", () => {
  it("deleting, purging or linking a superseded version answers 409 naming the current one, writing nothing; the current version is deleted as usual", async () => {
    const agent = freshAgent("superseded-ops");
    const A = `/v1/agents/${agent}`;
    const first = await json<{ node_id: number }>(await call(`${A}/memories`, { body: { content: "Quentin drinks black coffee." } }));
    const second = await json<{ node_id: number }>(
      await call(`${A}/memories/${first.node_id}`, { method: "PATCH", body: { content: "Quentin drinks green tea now." } }),
    );
    const other = await json<{ node_id: number }>(await call(`${A}/memories`, { body: { content: "Quentin works nights." } }));
    const before = await json(await call(`${A}/stats?wait_ms=30000`));
    for (const res of [
      await call(`${A}/memories/${first.node_id}`, { method: "DELETE" }),
      await call(`${A}/memories/${first.node_id}?purge=true`, { method: "DELETE" }),
      await call(`${A}/links`, { body: { source: first.node_id, target: other.node_id, relation: "related" } }),
      await call(`${A}/links`, { body: { source: other.node_id, target: first.node_id, relation: "causes" } }),
    ]) {
      expect(res.status).toBe(409);
      const body = await json<{ error: { code: string; message: string; details: { superseded_by: number } } }>(res);
      expect(body.error).toMatchObject({ code: "conflict", details: { superseded_by: second.node_id } });
      expect(body.error.message).toContain(String(second.node_id));
    }
    expect(await json(await call(`${A}/stats?wait_ms=30000`))).toEqual(before);
    // No trace says the current version's topic was forgotten.
    expect(await recallText(agent, { keywords: ["Quentin"], locale: "en" })).not.toContain("[forgotten]");
    const deleted = await call(`${A}/memories/${second.node_id}?purge=true`, { method: "DELETE" });
    expect((await json<{ nodes_deleted: number[] }>(deleted)).nodes_deleted).toEqual(
      expect.arrayContaining([first.node_id, second.node_id]),
    );
  });
});
