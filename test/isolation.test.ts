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
import { agentRows, call, freshAgent, json, rememberAndWait, stubOf } from "./helpers";
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
