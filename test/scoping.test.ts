/**
 * Scoping (docs/design.md, "Scoping: sessions, speakers, tags and expiry"): the attributes a
 * remember and an explicit memory give their memories, the filter on search, recall, context and
 * listings, PATCH of tags and expiry, expiry on every read, and bad input naming the field.
 */
import { describe, expect, it } from "vitest";
import { call, freshAgent, json, waitTask } from "./helpers";

interface Item {
  node_id: number;
  kind: string;
  content: string;
  speaker: string | null;
  session_id: string | null;
  metadata: Record<string, string | number | boolean> | null;
  expires_at: number | null;
}

async function remember(agent: string, body: Record<string, unknown>): Promise<void> {
  const res = await call(`/v1/agents/${agent}/remember`, { body });
  expect(res.status, await res.clone().text()).toBe(202);
  await waitTask(agent, (await json<{ task_id: string }>(res)).task_id);
}

async function list(agent: string, filter?: unknown): Promise<Item[]> {
  const query = filter === undefined ? "" : `?filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const res = await call(`/v1/agents/${agent}/memories${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ items: Item[] }>(res)).items;
}

async function search(agent: string, body: Record<string, unknown>): Promise<Item[]> {
  const res = await call(`/v1/agents/${agent}/search`, { body: { top_k: 100, ...body } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ items: Item[] }>(res)).items;
}

async function recall(agent: string, body: Record<string, unknown>): Promise<{ memories: Item[]; text: string }> {
  const res = await call(`/v1/agents/${agent}/recall`, { body: { limit: 100, format: "json", ...body } });
  expect(res.status, await res.clone().text()).toBe(200);
  const out = await json<{ items: (Item & { type: string })[]; text: string }>(res);
  return { memories: out.items.filter((i) => i.type === "memory"), text: out.text };
}

/** Three sessions of one user, tagged, with two speakers. */
async function threeSessions(agent: string): Promise<void> {
  await remember(agent, {
    session_id: "s1",
    metadata: { project: "apollo", priority: 1 },
    messages: [
      { role: "user", name: "Ann", content: "The apollo launch checklist needs a fuel review before Friday.", id: "a1" },
      { role: "user", name: "Bob", content: "I will ask the fuel team about the apollo valves tomorrow.", id: "a2" },
    ],
  });
  await remember(agent, {
    session_id: "s2",
    metadata: { project: "zeus", priority: 3 },
    messages: [
      { role: "user", name: "Ann", content: "The zeus fuel budget doubled after the valves failed again.", id: "b1" },
      { role: "user", name: "Bob", content: "Zeus needs new valves from the supplier in Lyon.", id: "b2" },
    ],
  });
  await remember(agent, {
    session_id: "s3",
    messages: [{ role: "user", name: "Cy", content: "My cat likes the fuel smell in the garage, strangely.", id: "c1" }],
  });
}

describe("scoping", () => {
  it("a remember's memories carry its session, tags and expiry; entities carry none; views show them", async () => {
    const agent = freshAgent("scope");
    await threeSessions(agent);
    const items = await list(agent);
    const s1 = items.filter((i) => i.session_id === "s1");
    expect(s1.length).toBeGreaterThan(0);
    for (const item of s1) expect(item.metadata).toEqual({ project: "apollo", priority: 1 });
    expect(
      items
        .filter((i) => i.kind === "episode")
        .map((i) => i.session_id)
        .sort(),
    ).toEqual(["s1", "s2", "s3"]);
    const node = await json<Item & { links: { outgoing: { target: number; relation: string }[] } }>(
      await call(`/v1/agents/${agent}/nodes/${s1.find((i) => i.kind === "segment")?.node_id}`),
    );
    expect(node.session_id).toBe("s1");
    const entityId = node.links.outgoing.find((l) => l.relation === "关于" || l.relation === "相关")?.target;
    const entity = await json<Item>(await call(`/v1/agents/${agent}/nodes/${entityId}`));
    expect(entity.kind).toBe("entity");
    expect([entity.session_id, entity.metadata, entity.expires_at]).toEqual([null, null, null]);
  });

  it("search, recall, context and listings return only what the filter passes", async () => {
    const agent = freshAgent("scope");
    await threeSessions(agent);
    const fuel = (hits: Item[]) => hits.map((h) => h.content).filter((c) => /fuel/i.test(c));
    const all = await search(agent, { query: "fuel valves", mode: "keyword" });
    expect(new Set(all.map((h) => h.session_id))).toEqual(new Set(["s1", "s2", "s3"]));
    const s2 = await search(agent, { query: "fuel valves", mode: "keyword", session_ids: ["s2"] });
    expect(s2.length).toBeGreaterThan(0);
    expect(s2.every((h) => h.session_id === "s2")).toBe(true);
    expect(fuel(s2)).toEqual(fuel(all.filter((h) => h.session_id === "s2")));
    const bob = await search(agent, { query: "valves", speakers: ["Bob"] });
    expect(bob.length).toBe(2);
    expect(bob.every((h) => h.speaker === "Bob")).toBe(true);
    const tagged = await search(agent, { query: "fuel", metadata: { priority: { gte: 2 } } });
    expect(tagged.every((h) => h.session_id === "s2")).toBe(true);
    const either = await search(agent, { query: "fuel", any: [{ session_ids: ["s3"] }, { metadata: { project: "apollo" } }] });
    expect(new Set(either.map((h) => h.session_id))).toEqual(new Set(["s1", "s3"]));

    const recalled = await recall(agent, { query: "fuel valves", session_ids: ["s1"] });
    expect(recalled.memories.length).toBeGreaterThan(0);
    expect(recalled.memories.every((m) => m.session_id === "s1")).toBe(true);
    expect(recalled.text).not.toMatch(/zeus|cat/i);

    const context = await call(`/v1/agents/${agent}/context`, { body: { query: "fuel valves", speakers: ["Cy"] } });
    expect(context.status).toBe(200);
    const block = await context.text();
    expect(block).toMatch(/cat/);
    expect(block).not.toMatch(/apollo|zeus/i);

    expect((await list(agent, { session_ids: ["s3"] })).map((i) => i.session_id)).toEqual(["s3", "s3"]);
    expect(await list(agent, { speakers: ["Nobody"] })).toEqual([]);
  });

  it("PATCH replaces tags in place or on the new version; the version keeps the session", async () => {
    const agent = freshAgent("scope");
    const created = await call(`/v1/agents/${agent}/memories`, {
      body: { content: "The staging database moved to Frankfurt.", session_id: "ops", metadata: { team: "infra" } },
    });
    expect(created.status).toBe(201);
    const { node_id } = await json<{ node_id: number }>(created);
    const tagged = await call(`/v1/agents/${agent}/memories/${node_id}`, {
      method: "PATCH",
      body: { metadata: { team: "data", level: 2 } },
    });
    expect(await json(tagged)).toEqual({ node_id, supersedes: null, links_moved: 0 });
    const corrected = await call(`/v1/agents/${agent}/memories/${node_id}`, {
      method: "PATCH",
      body: { content: "The staging database moved to Dublin." },
    });
    const { node_id: newId } = await json<{ node_id: number }>(corrected);
    const view = await json<Item>(await call(`/v1/agents/${agent}/memories/${newId}`));
    expect([view.session_id, view.metadata]).toEqual(["ops", { team: "data", level: 2 }]);
  });

  it("an expired memory is gone from every read at once; retention_days gives new memories an expiry", async () => {
    const agent = freshAgent("scope");
    const past = Date.now() - 1000;
    const gone = await json<{ node_id: number }>(
      await call(`/v1/agents/${agent}/memories`, { body: { content: "The vault code is 4711.", expires_at: past } }),
    );
    const kept = await json<{ node_id: number }>(
      await call(`/v1/agents/${agent}/memories`, { body: { content: "The vault is in the cellar." } }),
    );
    expect((await search(agent, { query: "vault" })).map((h) => h.node_id)).toEqual([kept.node_id]);
    expect((await recall(agent, { query: "vault code" })).text).not.toMatch(/4711/);
    expect((await list(agent)).map((i) => i.node_id)).toEqual([kept.node_id]);
    expect((await call(`/v1/agents/${agent}/memories/${gone.node_id}`)).status).toBe(404);
    expect((await call(`/v1/agents/${agent}/nodes/${gone.node_id}`)).status).toBe(404);
    const exported = await (await call(`/v1/agents/${agent}/export`)).text();
    expect(exported).not.toMatch(/4711/);
    const context = await (
      await call(`/v1/agents/${agent}/context`, { body: { query: "vault code", include: ["memories", "profile"] } })
    ).text();
    expect(context).not.toMatch(/4711/);

    const configured = await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { retention_days: 30 } });
    expect(configured.status).toBe(200);
    const before = Date.now();
    const later = await json<{ node_id: number }>(
      await call(`/v1/agents/${agent}/memories`, { body: { content: "The cellar key hangs by the door." } }),
    );
    const view = await json<Item>(await call(`/v1/agents/${agent}/memories/${later.node_id}`));
    expect(view.expires_at).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(view.expires_at).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
  });

  it("bad input is a 400 naming the field and writes nothing", async () => {
    const agent = freshAgent("scope");
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i]));
    const cases: [string, Record<string, unknown>, string][] = [
      ["remember", { messages: [{ role: "user", content: "x y z" }], metadata: tooMany }, "metadata"],
      ["remember", { messages: [{ role: "user", content: "x y z" }], metadata: { a: { b: 1 } } }, "metadata.a"],
      ["remember", { messages: [{ role: "user", content: "x y z" }], session_id: "no spaces" }, "session_id"],
      ["remember", { messages: [{ role: "user", content: "x y z" }], metadata: { ["k".repeat(65)]: 1 } }, "metadata"],
      ["memories", { content: "x y z", metadata: { s: "v".repeat(257) } }, "metadata.s"],
      ["search", { query: "x", metadata: { a: { like: "x" } } }, "metadata.a"],
      ["search", { query: "x", session_ids: ["bad/id"] }, "session_ids.0"],
      ["recall", { query: "x", any: [{ any: [] }] }, "any.0"],
      ["context", { query: "x", speakers: [] }, "speakers"],
      ["remember", { messages: [{ role: "user", content: "x y z" }], metadata: { n: null } }, "metadata.n"],
      ["remember", { messages: [{ role: "user", content: "x y z" }], expires_at: "next week" }, "expires_at"],
      ["search", { query: "x", metadata: { n: { gte: "2" } } }, "metadata.n"],
      ["tools/call", { name: "search_memories", arguments: { query: "x", session_ids: ["a b"] } }, "session_ids"],
    ];
    for (const [path, body, field] of cases) {
      const res = await call(`/v1/agents/${agent}/${path}`, { body });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const error = await json<{ error: { code: string; message: string } }>(res);
      expect(error.error.code).toBe("validation_failed");
      expect(error.error.message, JSON.stringify(body)).toContain(field);
    }
    // NaN cannot be written in JSON: a number that is not finite arrives as a string or as null.
    const nan = await call(`/v1/agents/${agent}/remember`, {
      rawBody: '{"messages":[{"role":"user","content":"x"}],"metadata":{"n":NaN}}',
    });
    expect(nan.status).toBe(400);
    const badFilter = await call(`/v1/agents/${agent}/memories?filter=${encodeURIComponent("{not json")}`);
    expect(badFilter.status).toBe(400);
    expect((await json<{ error: { message: string } }>(badFilter)).error.message).toContain("filter");
    const stats = await json<{ nodes: { total: number }; queue: { queued: number; done: number } }>(
      await call(`/v1/agents/${agent}/stats`),
    );
    expect(stats.nodes.total).toBe(0);
    expect(stats.queue.queued + stats.queue.done).toBe(0);
  });
});
