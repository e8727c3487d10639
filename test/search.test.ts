import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DATA_VERSION } from "../src/engine/stores/meta-store";
import { upgradeAgentData } from "../src/agent/upgrade";
import { indexTokens } from "../src/search/bm25-index";
import { ftsDocument } from "../src/search/fts-text";
import { FTS_AGENT_STRIDE } from "../src/storage/fts-repo";
import { agentRows, agentUid, call, drainAlarms, freshAgent, json, recallJson, rememberAndWait, stubOf, type Msg } from "./helpers";
import { MemoryAgent } from "../src/agent/memory-agent";

interface SearchItem {
  node_id: number;
  kind: string;
  content: string;
  source_message_ids: string[];
  time: number;
  score: number;
  scores: { keyword: number | null; vector: number | null };
}

async function search(agentId: string, body: Record<string, unknown>): Promise<SearchItem[]> {
  const res = await call(`/v1/agents/${agentId}/search`, { body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ items: SearchItem[] }>(res)).items;
}

const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`);

// Each message is its own segment (none is under the 20-character merge size).
const corpus: Msg[] = [
  { role: "user", content: "I adopted a puppy named Rex from the shelter.", id: "c1", timestamp: day("2023-01-01") },
  { role: "user", content: "Rex loves chasing tennis balls along the river.", id: "c2", timestamp: day("2023-02-01") },
  { role: "user", content: "My sister is visiting from Berlin next week.", id: "c3", timestamp: day("2023-03-01") },
  { role: "user", content: "我今天去了公园，看到了很多花，心情很好。", id: "c4", timestamp: day("2023-04-01") },
  { role: "user", content: "我特别喜欢吃红色的苹果，每天都吃一个。", id: "c5", timestamp: day("2023-05-01") },
  { role: "user", content: "周末我和Rex一起去海边散步，天气晴朗。", id: "c6", timestamp: day("2023-06-01") },
];

async function corpusAgent(): Promise<string> {
  const agent = freshAgent("search");
  await rememberAndWait(agent, corpus);
  await drainAlarms(agent);
  return agent;
}

const ids = (items: SearchItem[]) => items.map((i) => i.source_message_ids[0]);

describe("full-text search (FTS5, BM25)", () => {
  it("finds Chinese two-character words, mixed Chinese/English, and English stems", async () => {
    const agent = await corpusAgent();
    expect(ids(await search(agent, { query: "苹果", mode: "keyword" }))).toEqual(["c5"]);
    expect(ids(await search(agent, { query: "公园", mode: "keyword" }))).toEqual(["c4"]);
    expect(ids(await search(agent, { query: "海边", mode: "keyword" }))).toEqual(["c6"]);
    // "Rex" appears in English and inside Chinese text; the turn naming Rex twice in context ranks first.
    expect(ids(await search(agent, { query: "Rex", mode: "keyword" })).sort()).toEqual(["c1", "c2", "c6"]);
    // Stems: "adopting puppies" matches "adopted a puppy"; "chase" matches "chasing".
    expect(ids(await search(agent, { query: "adopting puppies", mode: "keyword" }))).toEqual(["c1"]);
    expect(ids(await search(agent, { query: "chase", mode: "keyword" }))).toEqual(["c2"]);
    // BM25: the document with both query terms outranks those with one.
    expect(ids(await search(agent, { query: "Rex shelter", mode: "keyword" }))[0]).toBe("c1");
    expect(await search(agent, { query: "zebra", mode: "keyword" })).toEqual([]);
  });

  it("finds Chinese substrings the word segmenter cut differently", async () => {
    const agent = freshAgent("substring");
    await rememberAndWait(agent, [{ role: "user", content: "我们讨论了用户系统的登录模块设计，决定采用JWT方案。" }]);
    const items = await search(agent, { query: "用户系", mode: "keyword" });
    expect(items.map((i) => i.content)).toEqual(["我们讨论了用户系统的登录模块设计，决定采用JWT方案。"]);
  });

  it("filters by time range and by node kind", async () => {
    const agent = await corpusAgent();
    const range = { from: day("2023-01-15"), to: day("2023-12-31") };
    expect(ids(await search(agent, { query: "Rex", mode: "keyword", time_range: range })).sort()).toEqual(["c2", "c6"]);
    expect(ids(await search(agent, { query: "Rex", mode: "hybrid", time_range: { to: "2023-01-02T00:00:00Z" } }))).toEqual(["c1"]);
    const entities = await search(agent, { query: "Rex", mode: "keyword", kinds: ["entity"] });
    expect(entities.map((i) => [i.kind, i.content])).toEqual([["entity", "Rex"]]);
    const bad = await call(`/v1/agents/${agent}/search`, {
      body: { query: "Rex", time_range: { from: day("2024-01-01"), to: day("2023-01-01") } },
    });
    expect(bad.status).toBe(400);
  });

  it("ranks by vector similarity and fuses both in hybrid mode", async () => {
    const agent = await corpusAgent();
    const vector = await search(agent, { query: "a puppy from the animal shelter", mode: "vector", top_k: 3 });
    expect(vector[0]?.source_message_ids).toEqual(["c1"]);
    expect(vector[0]?.scores.vector).toBeGreaterThan(vector[1]?.scores.vector ?? 1);
    expect(vector.every((i) => i.scores.keyword === null)).toBe(true);
    const hybrid = await search(agent, { query: "puppy shelter", mode: "hybrid", top_k: 3 });
    expect(hybrid[0]?.source_message_ids).toEqual(["c1"]);
    expect(hybrid[0]?.scores.keyword).toBeGreaterThan(0);
    expect(hybrid[0]?.scores.vector).toBeGreaterThan(0);
    // Fused score of a document first in both lists: (1 − w) · 1 + w · 1 (src/memory/fusion.ts).
    expect(hybrid[0]?.score).toBeCloseTo(1, 12);
    const zh = await search(agent, { query: "喜欢吃苹果", mode: "vector", top_k: 1 });
    expect(zh[0]?.source_message_ids).toEqual(["c5"]);
  });

  it("follows compression and deletion: no stale hits, no hits on deleted nodes", async () => {
    const agent = freshAgent("follow");
    const markers = Array.from({ length: 8 }, (_, i) => `zephyr${i}`);
    await rememberAndWait(
      agent,
      markers.map((m, i) => ({ role: "user", content: `Note ${i}: the ${m} valve in the north greenhouse needs a careful check today.` })),
    );
    // New entities push the old ones out of focus; strong decay then compresses or deletes the notes.
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { decay_rate: 0.3 } });
    await rememberAndWait(agent, [
      { role: "user", content: "Erin and Frank planned the Tokyo trip." },
      { role: "user", content: "Grace fixed the login bug." },
      { role: "user", content: "架构评审时强调了安全性，建议使用短时效token。" },
    ]);
    await call(`/v1/agents/${agent}/compress`, { body: { cycles: 3 } });
    await drainAlarms(agent);
    const stats = await json<{ nodes: { total: number }; counters: Record<string, number>; vector_index: { vectors: number } }>(
      await call(`/v1/agents/${agent}/stats`),
    );
    expect((stats.counters.nodes_compressed ?? 0) + (stats.counters.nodes_deleted ?? 0)).toBeGreaterThan(0);
    const { db, key } = await agentRows(agent);
    const nodes = (await db.prepare("SELECT id, content FROM nodes WHERE agent = ?").bind(key).all<{ id: number; content: string }>())
      .results;
    const ftsRows = await db
      .prepare("SELECT count(*) AS n FROM nodes_fts WHERE rowid BETWEEN ? AND ?")
      .bind(key * FTS_AGENT_STRIDE, (key + 1) * FTS_AGENT_STRIDE - 1)
      .first<{ n: number }>();
    expect(ftsRows?.n).toBe(nodes.length);
    expect(stats.vector_index.vectors).toBe(nodes.length);
    for (const marker of markers) {
      const holder = nodes.find((n) => n.content.includes(marker));
      const found = await search(agent, { query: marker, mode: "keyword" });
      expect(
        found.map((i) => i.node_id),
        marker,
      ).toEqual(holder ? [holder.id] : []);
    }
  });

  it("never returns another agent's memories", async () => {
    const a = freshAgent("iso-a");
    const b = freshAgent("iso-b");
    await rememberAndWait(a, [{ role: "user", content: "The secret code word is quokka, said Alice." }]);
    await rememberAndWait(b, [{ role: "user", content: "Bob mentioned a quokka at the zoo yesterday." }]);
    for (const mode of ["keyword", "vector", "hybrid"]) {
      const fromA = await search(a, { query: "quokka", mode });
      const fromB = await search(b, { query: "quokka", mode });
      expect(fromA.map((i) => i.content)).toEqual(["The secret code word is quokka, said Alice."]);
      expect(fromB.map((i) => i.content)).toEqual(["Bob mentioned a quokka at the zoo yesterday."]);
    }
  });
});

describe("BM25 with the agent's own statistics", () => {
  it("gives an agent the same keyword scores however much other agents hold", async () => {
    const a = await corpusAgent();
    const before = await search(a, { query: "Rex river shelter", mode: "keyword" });
    expect(before.length).toBeGreaterThan(1);
    // Another agent fills the database with the same words: FTS5's shared statistics would shift.
    const other = freshAgent("stats-other");
    const flood: Msg[] = Array.from({ length: 60 }, (_, i) => ({
      role: "user",
      content: `Rex walked by the river ${i} times, far from the shelter number ${i}.`,
    }));
    await rememberAndWait(other, flood);
    const after = await search(a, { query: "Rex river shelter", mode: "keyword" });
    expect(after.map((i) => [i.node_id, i.score])).toEqual(before.map((i) => [i.node_id, i.score]));
  });
});

describe("full-text documents written by an earlier analyzer", () => {
  it("are written again once, when the agent's object wakes with layout 4", async () => {
    const agent = await corpusAgent();
    const { db, key } = await agentRows(agent);
    const low = key * FTS_AGENT_STRIDE;
    // What layout 3 wrote: other terms, other lengths.
    await db
      .prepare("UPDATE nodes_fts SET terms = 'stale' WHERE rowid BETWEEN ? AND ?")
      .bind(low, low + FTS_AGENT_STRIDE - 1)
      .run();
    await db.prepare("UPDATE nodes SET fts_tokens = 1 WHERE agent = ?").bind(key).run();
    await runInDurableObject(stubOf(agent), async (instance) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.meta.set("dataVersion", 3);
      await upgradeAgentData(state);
      expect(state.meta.get("dataVersion")).toBe(DATA_VERSION);
    });
    const rows = await db
      .prepare(
        "SELECT n.id AS id, n.content AS content, n.phrase AS phrase, n.keywords AS keywords, n.speaker AS speaker, n.message_time AS messageTime, n.fts_tokens AS tokens, f.terms AS terms FROM nodes n JOIN nodes_fts f ON f.rowid = ? + n.id WHERE n.agent = ?",
      )
      .bind(low, key)
      .all<{
        content: string;
        phrase: string;
        keywords: string;
        speaker: string | null;
        messageTime: number | null;
        tokens: number;
        terms: string;
      }>();
    expect(rows.results.length).toBeGreaterThan(5);
    for (const row of rows.results) {
      const document = ftsDocument({ ...row, keywords: JSON.parse(row.keywords) as string[] });
      expect(row.terms).toBe(document);
      expect(row.tokens).toBe(indexTokens(document).length);
    }
  });
});

describe("hybrid recall", () => {
  it("lets a cold agent (empty focus) recall what it holds", async () => {
    const agent = freshAgent("cold");
    // A lone memory without entities has no links: importance 0, so the first compression cycle
    // would forget it (seed 001 §4.4). Forgetting is paused to keep it for this test.
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } });
    await rememberAndWait(agent, [{ role: "user", content: "yes, I will do it tomorrow morning." }]);
    const focus = await json<{ focus: unknown[] }>(await call(`/v1/agents/${agent}/focus`));
    expect(focus.focus).toEqual([]);
    expect((await recallJson(agent, { keywords: ["morning"], start: "focus" })).items).toEqual([]);
    const recalled = await recallJson(agent, { keywords: ["morning"] });
    expect(recalled.items.map((i) => i.content)).toEqual(["yes, I will do it tomorrow morning."]);
    // Found through an entry point: the only start node, its own words matched.
    expect(recalled.start_nodes).toBe(1);
    expect(recalled.items[0]?.scores).toMatchObject({ hits: 1, path_strength: 0 });
  });

  it("finds memories the focus cannot reach, and still prefers those it can", async () => {
    const agent = freshAgent("hot");
    await rememberAndWait(agent, [{ role: "user", content: "我特别喜欢吃红色的苹果，每天都吃一个。" }]);
    // Six new entities: the apple memory is no longer reachable from the focus.
    await rememberAndWait(agent, [
      { role: "user", content: "Erin and Frank planned the Tokyo trip." },
      { role: "user", content: "Grace fixed the login bug." },
      { role: "user", content: "架构评审时强调了安全性，建议使用短时效token。" },
    ]);
    // 吃 (to eat) is a verb: a keyword of both, an entity of neither, so naming it brings nothing
    // back into the focus (naming 苹果 would: it is the apple memory's entity).
    await rememberAndWait(agent, [{ role: "user", content: "Grace likes to 吃 noodles and 吃 them at the Tokyo office." }]);
    // From the focus only: the Chinese apple memory is out of reach.
    const focus = (await recallJson(agent, { keywords: ["吃"], start: "focus" })).items.map((i) => i.content);
    expect(focus[0]).toBe("Grace likes to 吃 noodles and 吃 them at the Tokyo office.");
    expect(focus).not.toContain("我特别喜欢吃红色的苹果，每天都吃一个。");
    const hybrid = await recallJson(agent, { keywords: ["吃"] });
    expect(hybrid.items.slice(0, 2).map((i) => i.content)).toEqual([
      "Grace likes to 吃 noodles and 吃 them at the Tokyo office.",
      "我特别喜欢吃红色的苹果，每天都吃一个。",
    ]);
    expect(hybrid.items[0]?.scores.path_strength).toBe(1);
    expect(hybrid.items[1]?.scores.path_strength).toBeLessThanOrEqual(0.5);
  });

  it("turns a free-text query into keywords and recalls across the network", async () => {
    const agent = await corpusAgent();
    const recalled = await recallJson(agent, { query: "What is my sister doing next week?" });
    expect(recalled.items[0]?.source_message_ids).toEqual(["c3"]);
  });
});

describe("deleting an agent", () => {
  it("removes its rows, index entries, vectors and queue; the id can start afresh", async () => {
    const agent = await corpusAgent();
    const { db, key } = await agentRows(agent);
    const res = await call(`/v1/agents/${agent}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ deleted: true });
    for (const table of ["nodes", "links"]) {
      const row = await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE agent = ?`).bind(key).first<{ n: number }>();
      expect(row?.n, table).toBe(0);
    }
    const fts = await db
      .prepare("SELECT count(*) AS n FROM nodes_fts WHERE rowid BETWEEN ? AND ?")
      .bind(key * FTS_AGENT_STRIDE, (key + 1) * FTS_AGENT_STRIDE - 1)
      .first<{ n: number }>();
    expect(fts?.n).toBe(0);
    expect(await agentUid(agent)).toBeUndefined();
    const stats = await json<{ nodes: { total: number }; queue: Record<string, number>; vector_index: unknown }>(
      await call(`/v1/agents/${agent}/stats`),
    );
    expect(stats).toMatchObject({ nodes: { total: 0 }, queue: { queued: 0, running: 0, done: 0, failed: 0 }, vector_index: null });
    expect(await search(agent, { query: "Rex" })).toEqual([]);
    await rememberAndWait(agent, [{ role: "user", content: "A fresh start: Rex is now called Max." }]);
    expect((await search(agent, { query: "Max", mode: "keyword" })).map((i) => i.content)).toEqual([
      "A fresh start: Rex is now called Max.",
    ]);
  });
});
