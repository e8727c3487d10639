/**
 * Sessions as a resource and expiry (docs/design.md, "Sessions as a resource", "Expiry is a purge
 * at a time set in advance"): the session listing, a session forgotten and purged (the other
 * sessions untouched, a version it superseded elsewhere restored), a remember accepted before the
 * deletion deleted with it and one accepted after it kept, and memories purged by the alarm when
 * they expire.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MemoryAgent } from "../src/agent/memory-agent";
import { agentRows, call, drainAlarms, freshAgent, json, stubOf, waitTask } from "./helpers";
import { everySurface } from "./purge-surfaces";

interface Session {
  session_id: string;
  first_time: number;
  last_time: number;
  messages: number;
  memories: number;
}
interface Item {
  node_id: number;
  kind: string;
  content: string;
  session_id: string | null;
  superseded_by: number | null;
}

async function remember(agent: string, sessionId: string, messages: { content: string; id: string; timestamp?: number }[], key?: string) {
  const res = await call(`/v1/agents/${agent}/remember`, {
    body: { session_id: sessionId, messages: messages.map((m) => ({ role: "user", name: "Dana", ...m })) },
    ...(key ? { headers: { "Idempotency-Key": key } } : {}),
  });
  expect(res.status).toBe(202);
  return (await json<{ task_id: string }>(res)).task_id;
}

async function sessions(agent: string, query = ""): Promise<{ sessions: Session[]; next_cursor: string | null }> {
  const res = await call(`/v1/agents/${agent}/sessions${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res);
}

async function memories(agent: string, filter?: unknown): Promise<Item[]> {
  const query = filter ? `&filter=${encodeURIComponent(JSON.stringify(filter))}` : "";
  return (await json<{ items: Item[] }>(await call(`/v1/agents/${agent}/memories?limit=200&include_superseded=true${query}`))).items;
}

async function searchIn(agent: string, sessionId: string, query: string): Promise<number[]> {
  const res = await call(`/v1/agents/${agent}/search`, { body: { query, top_k: 100, session_ids: [sessionId] } });
  return (await json<{ items: { node_id: number }[] }>(res)).items.map((i) => i.node_id);
}

const T = Date.UTC(2026, 10, 1);

describe("sessions as a resource", () => {
  it("lists each session with the span of its messages, the messages remembered into it and the memories it holds, paged by id", async () => {
    const agent = freshAgent("sessions");
    await waitTask(
      agent,
      await remember(agent, "b-chat", [{ content: "We planned the garden beds for spring.", id: "b1", timestamp: T + 5000 }]),
    );
    await waitTask(
      agent,
      await remember(agent, "a-chat", [
        { content: "The tomatoes need a sunny corner.", id: "a1", timestamp: T },
        { content: "Basil grows well next to tomatoes.", id: "a2", timestamp: T + 1000 },
      ]),
    );
    await waitTask(
      agent,
      await remember(agent, "a-chat", [{ content: "Water them every morning in July.", id: "a3", timestamp: T + 9000 }]),
    );
    const first = await sessions(agent, "?limit=1");
    expect(first.sessions.map((s) => s.session_id)).toEqual(["a-chat"]);
    expect(first.sessions[0]).toMatchObject({ first_time: T, last_time: T + 9000, messages: 3 });
    expect(first.sessions[0]?.memories).toBeGreaterThanOrEqual(4); // three segments and two episodes at least
    const second = await sessions(agent, `?limit=1&cursor=${first.next_cursor}`);
    expect(second.sessions.map((s) => s.session_id)).toEqual(["b-chat"]);
    expect(second.next_cursor).toBeNull();
    expect((await call(`/v1/agents/${agent}/sessions?cursor=nope`)).status).toBe(400);
  });

  it("forgetting a session deletes its memories, leaves the others as they were, keeps traces, and restores a version it superseded elsewhere", async () => {
    const agent = freshAgent("sessions");
    const write = async (content: string, session_id: string) =>
      expect((await call(`/v1/agents/${agent}/memories`, { body: { content, session_id } })).status).toBe(201);
    await write("Alice lives in Paris.", "s1");
    await waitTask(agent, await remember(agent, "s1", [{ content: "The canal boats run on Sundays.", id: "p2" }]));
    await write("Alice moved to Berlin last month.", "s2");
    await waitTask(agent, await remember(agent, "s2", [{ content: "Berlin has good bakeries near the office.", id: "m1" }]));
    await waitTask(agent, await remember(agent, "s3", [{ content: "My sister plays the cello on Sundays.", id: "c1" }]));
    const before = await memories(agent);
    const s1Before = before.filter((m) => m.session_id === "s1");
    // s2's move superseded s1's address (an update across sessions: the same user).
    expect(s1Before.some((m) => m.superseded_by !== null)).toBe(true);
    const s3Search = await searchIn(agent, "s3", "Sundays cello");
    const s1Search = await searchIn(agent, "s1", "canal boats Sundays");

    const res = await call(`/v1/agents/${agent}/sessions/s2`, { method: "DELETE" });
    expect(res.status, await res.clone().text()).toBe(200);
    const deleted = await json<{ deleted: boolean; purged: boolean; memories_deleted: number; versions_restored: number }>(res);
    expect(deleted).toMatchObject({ deleted: true, purged: false });
    expect(deleted.memories_deleted).toBe(before.filter((m) => m.session_id === "s2").length);

    const after = await memories(agent);
    expect(after.filter((m) => m.session_id === "s2")).toEqual([]);
    // The other sessions: the same memories, the same texts; a correction from s2 is undone.
    const s1After = after.filter((m) => m.session_id === "s1");
    expect(s1After.map((m) => [m.node_id, m.content])).toEqual(s1Before.map((m) => [m.node_id, m.content]));
    expect(s1After.every((m) => m.superseded_by === null)).toBe(true);
    expect(deleted.versions_restored).toBe(s1Before.filter((m) => m.superseded_by !== null).length);
    expect(await searchIn(agent, "s3", "Sundays cello")).toEqual(s3Search);
    expect(await searchIn(agent, "s1", "canal boats Sundays")).toEqual(s1Search);
    // Nothing of it is read back; a trace (a dangling link) may remain.
    const surfaces = await everySurface(agent, { words: ["Berlin", "moved", "bakeries"] });
    expect(surfaces).not.toMatch(/moved to Berlin|good bakeries/);
    expect((await sessions(agent)).sessions.map((s) => s.session_id)).toEqual(["s1", "s3"]);
    expect((await call(`/v1/agents/${agent}/sessions/s2`, { method: "DELETE" })).status).toBe(404);
  });

  it("purging a session leaves no byte of it on any surface, no task result and no Idempotency-Key replay", async () => {
    const agent = freshAgent("sessions");
    const secret = "Zorblax";
    const tasks = [
      await remember(agent, "keep", [{ content: "The quarterly report is due in March.", id: "k1" }]),
      await remember(agent, "gone", [{ content: `My bank password hint is ${secret} the parrot.`, id: "g1" }], "gone-1"),
    ];
    for (const id of tasks) await waitTask(agent, id);
    const created = await call(`/v1/agents/${agent}/memories`, {
      body: { content: `${secret} the parrot lives with my aunt.`, session_id: "gone" },
      headers: { "Idempotency-Key": "gone-2" },
    });
    expect(created.status).toBe(201);
    const res = await call(`/v1/agents/${agent}/sessions/gone?purge=true`, { method: "DELETE" });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await json(res)).toMatchObject({ deleted: true, purged: true });
    const surfaces = await everySurface(agent, {
      words: [secret, "parrot", "password"],
      taskIds: tasks,
      replays: [
        {
          path: `/v1/agents/${agent}/remember`,
          method: "POST",
          key: "gone-1",
          body: {
            session_id: "gone",
            messages: [{ role: "user", name: "Dana", content: `My bank password hint is ${secret} the parrot.`, id: "g1" }],
          },
        },
      ],
    });
    expect(surfaces).not.toContain(secret);
    const replay = await call(`/v1/agents/${agent}/memories`, {
      body: { content: `${secret} the parrot lives with my aunt.`, session_id: "gone" },
      headers: { "Idempotency-Key": "gone-2" },
    });
    expect(replay.status).toBe(409);
    const { db, key } = await agentRows(agent);
    const rows = await db
      .prepare("SELECT count(*) AS n FROM nodes WHERE agent = ? AND (content LIKE ? OR session_id = 'gone')")
      .bind(key, `%${secret}%`)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
    expect((await memories(agent)).map((m) => m.session_id)).toEqual(["keep", "keep"]);
  });

  it("a remember into the session accepted before the deletion is deleted with it; one accepted after it is kept", async () => {
    const agent = freshAgent("sessions");
    const identity = { tenantId: "dev", agentId: agent };
    const stub = stubOf(agent);
    const message = (id: string, content: string) => ({ session_id: "chat", messages: [{ role: "user" as const, content, id }] });
    // Pipelined: each request is accepted (queued) before the next is sent; none waits for its task.
    const before = await stub.submit(identity, "remember", message("x1", "Before the deletion we talked about kayaks."));
    const deletion = await stub.submit(identity, "deleteSession", { session_id: "chat", purge: false });
    const afterwards = await stub.submit(identity, "remember", message("x2", "After the deletion we talked about canoes."));
    for (const outcome of [before, deletion, afterwards]) expect(outcome.ok).toBe(true);
    await drainAlarms(agent);
    const left = (await memories(agent)).filter((m) => m.kind === "segment");
    expect(left.map((m) => m.content)).toEqual(["After the deletion we talked about canoes."]);
    expect((await sessions(agent)).sessions).toMatchObject([{ session_id: "chat", messages: 1 }]);
  });

  it("answers 404 for a session the agent never had and 400 for an id out of the alphabet, writing nothing", async () => {
    const agent = freshAgent("sessions");
    expect((await call(`/v1/agents/${agent}/sessions/never`, { method: "DELETE" })).status).toBe(404);
    const bad = await call(`/v1/agents/${agent}/sessions/bad%20id`, { method: "DELETE" });
    expect(bad.status).toBe(400);
    expect((await json<{ error: { message: string } }>(bad)).error.message).toContain("sessionId");
    expect((await sessions(agent)).sessions).toEqual([]);
  });
});

describe("expiry", () => {
  it("an expired correction is purged and the version it superseded, which does not expire, is current again", async () => {
    const agent = freshAgent("expiry");
    const create = async (body: Record<string, unknown>) => {
      const res = await call(`/v1/agents/${agent}/memories`, { body });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await json<{ node_id: number }>(res)).node_id;
    };
    const paris = await create({ content: "Alice lives in Paris." });
    const berlin = await create({ content: "Alice moved to Berlin last month.", expires_at: Date.now() + 3_600_000 });
    const before = await memories(agent);
    expect(before.find((m) => m.node_id === paris)?.superseded_by).toBe(berlin);
    const patched = await call(`/v1/agents/${agent}/memories/${berlin}`, { method: "PATCH", body: { expires_at: Date.now() - 1 } });
    expect(patched.status).toBe(200);
    await drainAlarms(agent);
    const after = await memories(agent);
    // Current again (its text as forgetting left it: a superseded version is compressed like any memory).
    expect(after.map((m) => [m.node_id, m.superseded_by])).toEqual([[paris, null]]);
    expect("Alice lives in Paris.").toContain(after[0]?.content);
    const { db, key } = await agentRows(agent);
    expect(await db.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ? AND content LIKE '%Berlin%'").bind(key).first("n")).toBe(0);
  });

  it("the alarm is set for the earliest expiry, and an expired memory is purged by it: nothing left, not even a trace", async () => {
    const agent = freshAgent("expiry");
    const soon = Date.now() + 3_600_000;
    await waitTask(agent, await remember(agent, "day", [{ content: "The bakery on Elm Street opens at six.", id: "e0" }]));
    const created = await json<{ node_id: number }>(
      await call(`/v1/agents/${agent}/memories`, { body: { content: "The Quillmark locker code is 9931.", expires_at: soon } }),
    );
    // The backstop alarm of the request's drain runs; then the one alarm waits for the expiry.
    await runDurableObjectAlarm(stubOf(agent));
    // The alarm comes at the expiry, or sooner for the object's own upkeep (its usage report), after
    // which it is armed for the expiry again; the schedule holds the expiry.
    const { alarm, earliest } = await runInDurableObject(stubOf(agent), async (instance: MemoryAgent, state) => ({
      alarm: await state.storage.getAlarm(),
      earliest: MemoryAgent.testAccess(instance).state.expiries.earliest(),
    }));
    expect(earliest).toBe(soon);
    expect(alarm).not.toBeNull();
    expect(alarm ?? Infinity).toBeLessThanOrEqual(soon);
    // The consent is withdrawn: the memory expires now.
    const patched = await call(`/v1/agents/${agent}/memories/${created.node_id}`, {
      method: "PATCH",
      body: { expires_at: Date.now() - 1 },
    });
    expect(patched.status).toBe(200);
    await drainAlarms(agent);
    // Nothing is scheduled any more (an alarm may remain for the object's usage report).
    expect(
      await runInDurableObject(stubOf(agent), (instance: MemoryAgent) => MemoryAgent.testAccess(instance).state.expiries.earliest()),
    ).toBeNull();
    const { db, key } = await agentRows(agent);
    const left = await db
      .prepare(
        "SELECT (SELECT count(*) FROM nodes WHERE agent = ?1 AND content LIKE '%9931%') AS nodes, (SELECT count(*) FROM links WHERE agent = ?1 AND target = ?2) AS links",
      )
      .bind(key, created.node_id)
      .first<{ nodes: number; links: number }>();
    expect(left).toEqual({ nodes: 0, links: 0 });
    const surfaces = await everySurface(agent, { words: ["Quillmark", "locker", "9931"], nodeIds: [created.node_id] });
    expect(surfaces).not.toMatch(/9931|Quillmark/);
    const stats = await json<{ counters: Record<string, number> }>(await call(`/v1/agents/${agent}/stats`));
    expect(stats.counters.memories_expired).toBe(1);
    expect((await memories(agent)).map((m) => m.content)).toContain("The bakery on Elm Street opens at six.");
  });
});
