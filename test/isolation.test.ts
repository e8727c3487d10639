/**
 * No tenant learns anything of another's data (docs/design.md §7, Isolation): not through the
 * full-text scores of an agent too large to cache (they come from its own statistics only), and
 * not through full-text rowids that stop being exact (the registry refuses ids past the limit).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runSearch, SearchQuerySchema } from "../src/agent/tasks/search";
import { MAX_AGENT_UID } from "../src/config/limits";
import { createDb } from "../src/storage/db";
import { storeKey } from "../src/storage/api-keys";
import { call, freshAgent, json, rememberAndWait, stubOf } from "./helpers";
import { internals } from "./internals";

/** Keyword search the way an agent too large to cache runs it: from D1 (FTS5 candidates). */
async function searchFromD1(agent: string, query: string) {
  return runInDurableObject(stubOf(agent), async (instance) => {
    const state = internals(instance).state;
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
  it("refuses to register an agent past the full-text rowid limit with 503, writing nothing", async () => {
    // Pretend the database already holds the most agents its rowids can address.
    await env.DB.prepare("INSERT INTO agents (id, tenant_id, agent_id, created_at, last_active_at) VALUES (?, 'filler', 'filler', 0, 0)")
      .bind(MAX_AGENT_UID)
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
    } finally {
      await env.DB.prepare("DELETE FROM agents WHERE id = ?").bind(MAX_AGENT_UID).run();
      // AUTOINCREMENT remembers the highest id: bring it back so later agents of this file register.
      await env.DB.prepare("UPDATE sqlite_sequence SET seq = (SELECT coalesce(max(id), 0) FROM agents) WHERE name = 'agents'").run();
    }
    const after = freshAgent("fits-again");
    expect((await rememberAndWait(after, [{ role: "user", content: "Registered again." }])).status).toBe("done");
  });
});
