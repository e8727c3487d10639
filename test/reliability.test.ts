/**
 * Nothing accepted is lost or applied twice (docs/design.md §15): writes accepted around a pending
 * deletion, client retries, the timing of requests, an interrupted compression page, and tasks
 * whose invocation the platform ends. (The same promises against a real server killed with
 * kill -9 are in test/faults, `npm run test:faults`.)
 */
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IntentStore, splitText } from "../src/engine/stores/intent-store";
import { enqueueTask } from "../src/agent/agent-tasks";
import { MAX_TASK_ATTEMPTS } from "../src/config/limits";
import { agentRows, agentUid, call, drainAlarms, freshAgent, json, rememberAndWait, stubOf, type Msg } from "./helpers";
import { linksAsTheyStand, scanCounts } from "./agent-access";
import { MemoryAgent } from "../src/agent/memory-agent";

interface Stats {
  nodes: { total: number; segments: number };
  links: { total: number; dangling: number };
  counters: Record<string, number>;
  queue: Record<string, number>;
}

const stats = async (agent: string) => json<Stats>(await call(`/v1/agents/${agent}/stats?wait_ms=30000`));

/** Queues a deletion that has not run yet (the object does not start draining). */
async function pendingDelete(agent: string): Promise<string> {
  return runInDurableObject(stubOf(agent), (instance) => {
    const { state } = MemoryAgent.testAccess(instance);
    state.bind({ tenantId: "dev", agentId: agent });
    return enqueueTask(state.queue, "deleteAgent", null, { now: Date.now() }).id;
  });
}

/** Everything of an agent that the network is: nodes with contents, links at their levels, scan counts. */
async function snapshot(agent: string) {
  const { db, key } = await agentRows(agent);
  const nodes = (
    await db
      .prepare("SELECT id, kind, name, content, original_length, source_message_ids FROM nodes WHERE agent = ? ORDER BY id")
      .bind(key)
      .all()
  ).results;
  const links = (await linksAsTheyStand(agent)).sort(
    (a, b) => a.source - b.source || a.target - b.target || a.relation.localeCompare(b.relation),
  );
  return { nodes, links, scans: [...(await scanCounts(agent))].sort((a, b) => a[0] - b[0]) };
}

describe("writes around a pending deletion", () => {
  it("a remember accepted while a deletion is pending is applied after it, to the fresh agent", async () => {
    const agent = freshAgent("del-then-remember");
    await rememberAndWait(agent, [{ role: "user", content: "Old memory: Orion ships on Monday." }]);
    await pendingDelete(agent);
    const res = await call(`/v1/agents/${agent}/remember`, {
      body: { messages: [{ role: "user", content: "New memory: Vega ships on Friday." }] },
    });
    expect(res.status).toBe(202);
    const { task_id } = await json<{ task_id: string }>(res);
    await drainAlarms(agent);
    const task = await json<{ status: string; error: string | null }>(await call(`/v1/agents/${agent}/tasks/${task_id}`));
    expect(task).toMatchObject({ status: "done", error: null });
    const after = await stats(agent);
    expect(after.nodes.segments).toBe(1);
    expect(after.queue).toMatchObject({ queued: 0, running: 0, failed: 0 });
    const text = await (await call(`/v1/agents/${agent}/recall`, { body: { keywords: ["ships"] } })).text();
    expect(text).toContain("Vega");
    expect(text).not.toContain("Orion");
    // Registered again, so the cron safety net can see it.
    expect(await agentUid(agent)).toBeDefined();
  });

  it("a config change accepted while a deletion is pending configures the agent that follows it", async () => {
    const agent = freshAgent("del-then-config");
    await rememberAndWait(agent, [{ role: "user", content: "Old memory: Orion ships on Monday." }]);
    await pendingDelete(agent);
    await runInDurableObject(stubOf(agent), (_instance, ctx) => ctx.storage.setAlarm(Date.now()));
    const put = await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { decay_rate: 0.5, focus_limit: 3 } });
    expect(put.status).toBe(200);
    expect(await json(put)).toMatchObject({ decay_rate: 0.5, focus_limit: 3 });
    await drainAlarms(agent);
    expect(await json(await call(`/v1/agents/${agent}/config`))).toMatchObject({ decay_rate: 0.5, focus_limit: 3 });
    expect((await stats(agent)).nodes.total).toBe(0);
  });

  it("re-arms an alarm left in the past, so queued work never waits for an unrelated request", async () => {
    const agent = freshAgent("stale-alarm");
    const alarm = await runInDurableObject(stubOf(agent), async (instance, ctx) => {
      const { state, runner } = MemoryAgent.testAccess(instance);
      state.bind({ tenantId: "dev", agentId: agent });
      await ctx.storage.setAlarm(Date.now() - 60_000);
      enqueueTask(state.queue, "updateConfig", { decay_rate: 0.8 }, { now: Date.now() });
      await runner.wake();
      return ctx.storage.getAlarm();
    });
    expect(alarm).toBeGreaterThanOrEqual(Date.now() - 1_000);
    await drainAlarms(agent);
    expect(await json(await call(`/v1/agents/${agent}/config`))).toMatchObject({ decay_rate: 0.8 });
  });
});

describe("client retries", () => {
  const messages: Msg[] = [
    { role: "user", content: "Alice booked the Lisbon flight.", id: "r-1" },
    { role: "assistant", content: "Noted: Alice flies to Lisbon.", id: "r-2" },
  ];

  it("an Idempotency-Key retry answers as the first time and writes nothing; a different request with it is refused", async () => {
    const agent = freshAgent("idem");
    const send = (body: unknown, key: string) =>
      call(`/v1/agents/${agent}/remember`, { body, headers: { "Idempotency-Key": key, "Content-Type": "application/json" } });
    const first = await send({ messages }, "key-1");
    expect(first.status).toBe(202);
    const { task_id } = await json<{ task_id: string }>(first);
    const retry = await send({ messages }, "key-1");
    expect(retry.status).toBe(202);
    expect((await json<{ task_id: string }>(retry)).task_id).toBe(task_id);
    const other = await send({ messages: [{ role: "user", content: "Something else entirely." }] }, "key-1");
    expect(other.status).toBe(422);
    expect((await json<{ error: { code: string } }>(other)).error.code).toBe("idempotency_conflict");
    expect((await send({ messages }, "bad key with spaces")).status).toBe(400);
    const after = await stats(agent);
    expect(after.counters.remembers).toBe(1);
    const first_ = await json<{ result: { segments: number } }>(await call(`/v1/agents/${agent}/tasks/${task_id}`));
    expect(after.nodes.segments).toBe(first_.result.segments);
    // A retried config change and compression too.
    const put = () =>
      call(`/v1/agents/${agent}/config`, { method: "PUT", body: { decay_rate: 0.9 }, headers: { "Idempotency-Key": "cfg" } });
    expect((await put()).status).toBe(200);
    expect((await put()).status).toBe(200);
    const cycles = () => call(`/v1/agents/${agent}/compress`, { body: { cycles: 3 }, headers: { "Idempotency-Key": "cmp" } });
    const a = await json<{ task_ids: string[] }>(await cycles());
    const b = await cycles();
    expect(b.status, await b.clone().text()).toBe(202);
    expect((await json<{ task_ids: string[] }>(b)).task_ids).toEqual(a.task_ids);
    expect((await stats(agent)).counters.cycles).toBe(1 + 3);
  });

  it("messages whose id the agent holds are not stored again, and a submission of only those lets no time pass", async () => {
    const agent = freshAgent("dedupe");
    await rememberAndWait(agent, messages);
    const before = await stats(agent);
    const again = await rememberAndWait(agent, [...messages, messages[0]!]);
    expect(again.result).toMatchObject({ segments: 0, messages_skipped: 3 });
    const mixed = await rememberAndWait(agent, [messages[1]!, { role: "user", content: "Bob joins her in Lisbon.", id: "r-3" }]);
    expect(mixed.result).toMatchObject({ messages_skipped: 1 });
    const after = await stats(agent);
    expect(after.nodes.segments).toBe(before.nodes.segments + 1);
    expect(after.counters.cycles).toBe((before.counters.cycles ?? 0) + 1);
  });
});

describe("the timing of requests", () => {
  it("the same remembers sent as a burst and one by one end in the same network", async () => {
    const burst = freshAgent("burst");
    const serial = freshAgent("serial");
    // 60 here (the Workers test pool slows down as an agent's storage grows); the fault suite
    // (test/faults) runs the same comparison with 200 remembers against a real local server.
    const batches: Msg[][] = Array.from({ length: 60 }, (_, i) => [
      {
        role: "user",
        content: `Ticket ${i}: ${["Alice", "Bob", "Chen", "Dana", "Emil", "Farah", "Goran"][i % 7]} reviewed the ${["Orion", "Vega", "Lyra", "Draco"][i % 4]} release notes.`,
        id: `t${i}`,
      },
    ]);
    // Back to back: each sent as soon as the previous one is accepted, none waiting for the queue.
    for (const messages of batches) expect((await call(`/v1/agents/${burst}/remember`, { body: { messages } })).status).toBe(202);
    for (const messages of batches) await rememberAndWait(serial, messages);
    await drainAlarms(burst);
    await drainAlarms(serial);
    const [a, b] = [await snapshot(burst), await snapshot(serial)];
    expect(a.nodes.length).toBeGreaterThan(60);
    expect(a.nodes).toEqual(b.nodes);
    expect(a.links).toEqual(b.links);
    expect(a.scans).toEqual(b.scans);
    const [sa, sb] = [await stats(burst), await stats(serial)];
    expect(sa.counters.cycles).toBe(60);
    expect(sa.counters).toEqual(sb.counters);
  });
});

describe("an interrupted compression page", () => {
  it("is redone from its stored intent: rows, vectors and counters end as without the fault", async () => {
    const faulty = freshAgent("page-fault");
    const twin = freshAgent("page-twin");
    const contents = ["Carol reviews the budget with Dave.", "Erin and Frank planned the Tokyo trip.", "Grace fixed the login bug."];
    for (const agent of [faulty, twin]) {
      await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { decay_rate: 0.3, auto_compress: false } });
      for (const [i, content] of contents.entries()) await rememberAndWait(agent, [{ role: "user", content, id: `c${i}` }]);
      // Six new entities push the first ones out of the focus: their memories can now be forgotten.
      await rememberAndWait(agent, [{ role: "user", content: "Heidi, Ivan, Judy, Ken, Liam and Mona met in Oslo.", id: "c9" }]);
    }
    // The faulty agent's first page commit dies after D1 and the vector index, before the object's state.
    await runInDurableObject(stubOf(faulty), (instance) => {
      const { state } = MemoryAgent.testAccess(instance);
      const applyLocal = state.applyLocal.bind(state);
      let failures = 0;
      state.applyLocal = (op) => {
        if (op.type === "count" && (op.counters.nodes_deleted ?? 0) > 0 && failures++ === 0) throw new Error("invocation ended");
        applyLocal(op);
      };
    });
    for (const agent of [faulty, twin]) {
      expect((await call(`/v1/agents/${agent}/compress`, { body: { cycles: 3 } })).status).toBe(202);
      await drainAlarms(agent);
    }
    await abortAllDurableObjects();
    await drainAlarms(faulty);
    const [a, b] = [await snapshot(faulty), await snapshot(twin)];
    expect(a.nodes).toEqual(b.nodes);
    expect(a.links).toEqual(b.links);
    const [sa, sb] = [await stats(faulty), await stats(twin)];
    expect(sb.counters.nodes_deleted).toBeGreaterThan(0);
    expect(sa.counters.nodes_deleted).toBe(sb.counters.nodes_deleted);
    expect(sa.counters.nodes_scanned).toBe(sb.counters.nodes_scanned);
    expect(sa.counters.links_broken).toBe(sb.counters.links_broken);
    // The vector index holds exactly the nodes that exist.
    const vectors = await runInDurableObject(stubOf(faulty), (_instance, ctx) =>
      ctx.storage.sql
        .exec<{ node_id: number }>("SELECT node_id FROM vectors ORDER BY node_id")
        .toArray()
        .map((r) => r.node_id),
    );
    expect(vectors).toEqual(a.nodes.map((n) => n.id));
  });
});

describe("tasks whose invocation the platform ends", () => {
  it("count the interrupted attempt: a task interrupted MAX_TASK_ATTEMPTS times fails with the reason, the rest resume", async () => {
    const agent = freshAgent("killed");
    await rememberAndWait(agent, [{ role: "user", content: "Orion ships on Monday." }]);
    await runInDurableObject(stubOf(agent), (instance) => {
      const { state } = MemoryAgent.testAccess(instance);
      const doomed = enqueueTask(state.queue, "updateConfig", { decay_rate: 0.5 }, { id: "tsk_killedtoooften00", now: Date.now() });
      for (let i = 0; i < MAX_TASK_ATTEMPTS; i++) state.queue.markRunning(doomed.id, Date.now());
      const resumed = enqueueTask(state.queue, "updateConfig", { decay_rate: 0.7 }, { id: "tsk_killedoncebefore", now: Date.now() });
      state.queue.markRunning(resumed.id, Date.now());
    });
    await abortAllDurableObjects();
    await drainAlarms(agent);
    const doomed = await json<{ status: string; attempts: number; error: string }>(
      await call(`/v1/agents/${agent}/tasks/tsk_killedtoooften00`),
    );
    expect(doomed).toMatchObject({ status: "failed", attempts: MAX_TASK_ATTEMPTS });
    expect(doomed.error).toContain("interrupted");
    const resumed = await json<{ status: string; attempts: number }>(await call(`/v1/agents/${agent}/tasks/tsk_killedoncebefore`));
    expect(resumed).toMatchObject({ status: "done", attempts: 2 });
    expect(await json(await call(`/v1/agents/${agent}/config`))).toMatchObject({ decay_rate: 0.7 });
  });
});

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("the largest remember the API accepts", () => {
  it("stores its write intent in parts, never splitting a character, and reads it back whole", async () => {
    expect(splitText("ab😀cd", 3)).toEqual(["ab", "😀c", "d"]);
    expect(splitText("😀😀", 1)).toEqual(["😀", "😀"]);
    expect(splitText("abc", 3)).toEqual(["abc"]);
    for (const text of ["x".repeat(40), "记忆😀".repeat(13), "😀".repeat(9)]) {
      for (const units of [1, 2, 3, 7, 100]) {
        const parts = splitText(text, units);
        expect(parts.join("")).toBe(text);
        for (const p of parts) expect(p, JSON.stringify(parts)).not.toMatch(LONE_SURROGATE);
      }
    }
    const agent = freshAgent("intent-parts");
    await rememberAndWait(agent, [{ role: "user", content: "A first memory so the object exists." }]);
    await runInDurableObject(stubOf(agent), (_instance, ctx) => {
      const store = new IntentStore(ctx.storage.sql, 7);
      const intent = JSON.stringify({ ops: [{ text: "登录模块😀 design".repeat(5) }] });
      store.put("tsk_parts00000000000", intent);
      expect(store.get("tsk_parts00000000000")).toBe(intent);
      // A fresh store (an object woken after eviction) reads the same parts.
      expect(new IntentStore(ctx.storage.sql, 7).get("tsk_parts00000000000")).toBe(intent);
      store.put("tsk_parts00000000000", "short");
      expect(store.get("tsk_parts00000000000")).toBe("short");
      store.delete("tsk_parts00000000000");
      const sql = ctx.storage.sql;
      expect(sql.exec<{ n: number }>("SELECT count(*) AS n FROM intent_parts").one().n).toBe(0);
      expect(store.get("tsk_parts00000000000")).toBeUndefined();
    });
  });

  it("is stored: 500 messages and 200,000 code points, in English and in Chinese", { timeout: 120_000 }, async () => {
    const sentence = (i: number) => `Item ${i}: the ${["harbour", "budget", "launch", "audit"][i % 4]} review moved to week ${i % 52}. `;
    const zhSentence = (i: number) => `第${i}项：${["港口", "预算", "发布", "审计"][i % 4]}评审改到第${i % 52}周。`;
    for (const [lang, line] of [
      ["en", sentence],
      ["zh", zhSentence],
    ] as const) {
      const messages: Msg[] = Array.from({ length: 500 }, (_, m) => {
        let content = "";
        for (let i = m * 1000; [...content].length < 400; i += 1) content += line(i);
        return { role: m % 2 ? "assistant" : "user", content: [...content].slice(0, 400).join(""), id: `${lang}-${m}` };
      });
      expect(messages.reduce((n, m) => n + [...m.content].length, 0)).toBe(200_000);
      const agent = freshAgent(`max-${lang}`);
      const task = await rememberAndWait(agent, messages);
      expect(task.status, JSON.stringify(task)).toBe("done");
      const stats = await json<{ characters: { remembered: number }; nodes: { segments: number } }>(
        await call(`/v1/agents/${agent}/stats?wait_ms=30000`),
      );
      // Segments hold the messages' text (whitespace at their edges trimmed), and every id is held.
      expect(stats.characters.remembered).toBeGreaterThan(0.99 * 200_000);
      expect(stats.nodes.segments).toBeGreaterThan(0);
      const held = await runInDurableObject(stubOf(agent), (_instance, ctx) =>
        ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages").one(),
      );
      expect(held.n).toBe(500);
    }
  });
});
