import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { enqueueTask, TASKS, type TaskKind } from "../src/agent/agent-tasks";
import { defineTask } from "../src/engine/define-task";
import { QueueRunner } from "../src/engine/queue-runner";
import { TaskKinds } from "../src/engine/task-kinds";
import { MAX_QUEUED_TASKS } from "../src/config/limits";
import { fingerprint } from "../src/engine/stores/idempotency";
import { agentRows, call, drainAlarms, freshAgent, json, stubOf, waitTask, type Msg } from "./helpers";
import { MemoryAgent } from "../src/agent/memory-agent";

interface TaskStatus {
  task_id: string;
  sequence: number;
  status: string;
  started_at: number;
  finished_at: number;
  attempts: number;
  error: string | null;
  result: { segments: number; nodes_created: number } | null;
}

async function segmentIdsByTask(agentId: string): Promise<Map<string, number[]>> {
  const { db, key } = await agentRows(agentId);
  const { results } = await db
    .prepare("SELECT id, source_task_id FROM nodes WHERE agent = ? AND kind = 'segment' ORDER BY id")
    .bind(key)
    .all<{ id: number; source_task_id: string }>();
  const out = new Map<string, number[]>();
  for (const r of results) out.set(r.source_task_id, [...(out.get(r.source_task_id) ?? []), r.id]);
  return out;
}

const message = (i: number): Msg[] => [{ role: "user", content: `Note number ${i}: the Orion launch checklist item ${i} is done.` }];

/**
 * Puts MAX_QUEUED_TASKS tasks in the agent's queue, each held back for an hour so that the queue
 * stays full during the requests that follow.
 */
async function fillQueue(agent: string, task: (i: number) => { id: string; kind: TaskKind; payload: unknown }): Promise<void> {
  await runInDurableObject(stubOf(agent), async (instance) => {
    const { state } = MemoryAgent.testAccess(instance);
    state.bind({ tenantId: "dev", agentId: agent });
    for (let i = 0; i < MAX_QUEUED_TASKS; i++) {
      const { id, kind, payload } = task(i);
      const queued = enqueueTask(state.queue, kind, payload, { id, now: Date.now() });
      state.queue.retryLater(queued.id, "held", Date.now() + 3_600_000);
    }
  });
}

describe("the durable FIFO queue", () => {
  it("applies 50 concurrent remembers one at a time, in arrival order", async () => {
    const agent = freshAgent("fifo");
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(`/v1/agents/${agent}/remember`, { body: { messages: message(i) } })),
    );
    expect(responses.every((r) => r.status === 202)).toBe(true);
    const ids = await Promise.all(responses.map(async (r) => (await json<{ task_id: string }>(r)).task_id));
    const tasks: TaskStatus[] = [];
    for (const id of ids) {
      await waitTask(agent, id);
      tasks.push(await json<TaskStatus>(await call(`/v1/agents/${agent}/tasks/${id}`)));
    }
    tasks.sort((a, b) => a.sequence - b.sequence);
    expect(new Set(tasks.map((t) => t.sequence)).size).toBe(50);
    // Never two at once: each task finished before the next one in arrival order started.
    for (let i = 1; i < tasks.length; i++) {
      expect(tasks[i - 1]!.finished_at).toBeLessThanOrEqual(tasks[i]!.started_at);
    }
    // Applied in arrival order: node ids (allocated when a task is applied) grow with the sequence.
    const byTask = await segmentIdsByTask(agent);
    const firstIds = tasks.map((t) => byTask.get(t.task_id)?.[0] ?? -1);
    expect(firstIds.every((id) => id > 0)).toBe(true);
    expect([...firstIds].sort((a, b) => a - b)).toEqual(firstIds);
  });

  it("lets the answer of a request leave before the task it queued runs, also when the request came in during another task", async () => {
    const agent = freshAgent("answer-first");
    const order = await runInDurableObject(stubOf(agent), async (instance, ctx) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.bind({ tenantId: "dev", agentId: agent });
      const order: string[] = [];
      // A request as the object serves one: counted, its task queued, the runner woken; its answer
      // then needs two more turns of the event loop to leave (locally: the object's reply, then the
      // Worker's response), modelled by two chained timers.
      const request = async (note: string): Promise<void> => {
        runner.requestArrived();
        registry.enqueue(state.queue, "note", { note }, { now: Date.now() });
        await runner.wake();
        setTimeout(() => setTimeout(() => order.push(`answer ${note}`), 0), 0);
      };
      const registry = new TaskKinds({
        ...TASKS,
        note: defineTask({
          lane: "write",
          payload: z.object({ note: z.string() }).strict(),
          result: z.null(),
          async run(_rt, task) {
            order.push(`run ${task.payload.note}`);
            // A request that reaches the object while this task holds it (a client sending the next call).
            if (task.payload.note === "a") setTimeout(() => void request("b").then(secondQueued), 0);
            return { status: "done", result: null };
          },
        }),
      });
      let secondQueued = (): void => undefined;
      const second = new Promise<void>((resolve) => (secondQueued = resolve));
      const runner = new QueueRunner(state, ctx, registry);
      await request("a");
      await second;
      expect(await runner.waitForIdle(10_000)).toBe(true);
      await ctx.storage.deleteAlarm();
      return order;
    });
    expect(order).toEqual(["answer a", "run a", "answer b", "run b"]);
  });

  it("keeps a read in memory, without a row, behind every write accepted before it", async () => {
    const agentId = freshAgent("read-order");
    const identity = { tenantId: "dev", agentId };
    const found = await runInDurableObject(stubOf(agentId), async (agent: MemoryAgent, ctx) => {
      // Accepted (durable), not applied yet: the read below must wait for it.
      await agent.submit(identity, "remember", { messages: [{ role: "user", content: "Quentin repaired the zephyrine boiler." }] });
      let answered = false;
      const asked = agent
        .ask(identity, "recall", { query: "Who repaired the zephyrine boiler?", keywords: [], relations: [], start: "hybrid" })
        .finally(() => (answered = true));
      // Until the read is queued (the remember runs the local model meanwhile).
      const queue = MemoryAgent.testAccess(agent).state.queue;
      const pending = () => queue.counts().queued + queue.counts().running;
      for (let i = 0; i < 200 && !answered && pending() < 2; i++) await new Promise((r) => setTimeout(r, 5));
      const readRows = ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM tasks WHERE lane = 'read'").one().n;
      const waiting = { answered, pending: pending() };
      const result = await asked;
      return { readRows, waiting, result: JSON.stringify(result) };
    });
    expect(found.readRows).toBe(0);
    // The read waits in memory (counted), the remember in the table.
    expect(found.waiting).toEqual({ answered: false, pending: 2 });
    expect(found.result).toContain("zephyrine");
  });

  it("completes every queued task once after the object is evicted", async () => {
    const agent = freshAgent("evict");
    const identity = { tenantId: "dev", agentId: agent };
    const stub = stubOf(agent);
    // Queue 20 tasks the way remember does, but without starting the drain: all are still queued
    // when the object is evicted; only the durable alarm remains to bring them back.
    const ids = await runInDurableObject(stub, async (instance, ctx) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.bind(identity);
      const queued = Array.from(
        { length: 20 },
        (_, i) =>
          enqueueTask(
            state.queue,
            "remember",
            { messages: message(i) },
            { id: `tsk_evicted${String(i).padStart(9, "0")}`, now: Date.now() },
          ).id,
      );
      await ctx.storage.setAlarm(Date.now());
      expect(state.queue.counts().queued).toBe(20);
      return queued;
    });
    await abortAllDurableObjects();
    await drainAlarms(agent);
    const byTask = await segmentIdsByTask(agent);
    let total = 0;
    for (const id of ids) {
      const task = await json<TaskStatus>(await call(`/v1/agents/${agent}/tasks/${id}`));
      expect(task.status).toBe("done");
      expect(byTask.get(id)?.length).toBe(task.result?.segments);
      total += task.result?.segments ?? 0;
    }
    const { db, key } = await agentRows(agent);
    const row = await db.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ? AND kind = 'segment'").bind(key).first<{ n: number }>();
    expect(row?.n).toBe(total);
  });

  it("a remember interrupted after its D1 write is resumed from its checkpoint and writes nothing twice", async () => {
    const agent = freshAgent("rerun");
    const identity = { tenantId: "dev", agentId: agent };
    const stub = stubOf(agent);
    const counts = async () => {
      const rows = await agentRows(agent).catch(() => undefined);
      if (!rows) return { nodes: 0, links: 0 };
      const n = await rows.db.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ?").bind(rows.key).first<{ n: number }>();
      const l = await rows.db.prepare("SELECT count(*) AS n FROM links WHERE agent = ?").bind(rows.key).first<{ n: number }>();
      return { nodes: n?.n ?? 0, links: l?.n ?? 0 };
    };
    const messages: Msg[] = [
      { role: "user", content: "Orion moved to the Vega team. Alice leads Vega now." },
      { role: "assistant", content: "Noted: Alice leads Vega, and Orion is part of it." },
    ];
    // Run the task by hand up to its D1 write, then "crash" before the object's side of the commit
    // (the final transaction throws, so it rolls back and the stored intent stays).
    const firstRun = await runInDurableObject(stub, async (instance) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.bind(identity);
      const task = enqueueTask(state.queue, "remember", { messages }, { id: "tsk_interrupted00000", now: Date.now() });
      state.queue.markRunning(task.id, Date.now());
      const applyLocal = state.applyLocal.bind(state);
      state.applyLocal = () => {
        throw new Error("crash");
      };
      try {
        await expect(
          TASKS.remember.run(state, {
            id: task.id,
            seq: task.seq,
            position: task.position,
            payload: { messages },
            checkpoint: null,
            attempts: 1,
          }),
        ).rejects.toThrow("crash");
      } finally {
        state.applyLocal = applyLocal;
      }
      const intent = state.storage.sql.exec<{ intent: string }>("SELECT intent FROM intents WHERE task_id = ?", task.id).one();
      const ops = JSON.parse(intent.intent).ops as { type: string; nodes?: unknown[]; links?: unknown[]; focus?: { nodeId: number }[] }[];
      return {
        nodes: ops.find((o) => o.type === "createNodes")?.nodes?.length ?? 0,
        links: ops.find((o) => o.type === "createLinks")?.links?.length ?? 0,
        focus: ops.find((o) => o.type === "setFocus")?.focus?.map((f) => f.nodeId) ?? [],
        localFocus: state.focus.ids(),
      };
    });
    // D1 has the rows; the object's focus has not moved (its side of the commit rolled back).
    expect(firstRun.localFocus).toEqual([]);
    const written = await counts();
    expect(written.nodes).toBe(firstRun.nodes);
    expect(written.links).toBe(firstRun.links);
    expect(firstRun.nodes).toBeGreaterThan(0);

    await abortAllDurableObjects();
    await drainAlarms(agent);
    const task = await json<TaskStatus>(await call(`/v1/agents/${agent}/tasks/tsk_interrupted00000`));
    expect(task.status).toBe("done");
    expect(task.attempts).toBe(2);
    expect(task.result?.nodes_created).toBe(firstRun.nodes);
    expect(await counts()).toEqual(written);
    const focus = await json<{ focus: { node_id: number }[] }>(await call(`/v1/agents/${agent}/focus`));
    expect(focus.focus.map((f) => f.node_id)).toEqual(firstRun.focus);
  });

  it("marks a task that keeps failing as failed and moves on", async () => {
    const agent = freshAgent("failing");
    const identity = { tenantId: "dev", agentId: agent };
    const stub = stubOf(agent);
    // A corrupt payload cannot succeed: it fails at once, with its error.
    await runInDurableObject(stub, async (instance) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.bind(identity);
      // Stored as an older version of the code might have: not a payload this code can read.
      state.storage.sql.exec(
        "INSERT INTO tasks (id, kind, lane, payload, status, created_at, position) VALUES ('tsk_corrupt000000000', 'remember', 'write', '{\"messages\":\"nope\"}', 'queued', ?, 0)",
        Date.now(),
      );
    });
    const next = await stub.submit(identity, "remember", { messages: message(3) });
    if (!next.ok) throw new Error("refused");
    await drainAlarms(agent);
    const bad = await json<TaskStatus>(await call(`/v1/agents/${agent}/tasks/tsk_corrupt000000000`));
    expect(bad.status).toBe("failed");
    expect(bad.error).toContain("unreadable remember payload");
    expect(bad.attempts).toBe(1);
    expect((await json<TaskStatus>(await call(`/v1/agents/${agent}/tasks/${next.taskIds[0]}`))).status).toBe("done");
  });

  it("retries a failing model call, then the task in place, then fails it without blocking the queue", async () => {
    const agent = freshAgent("transient");
    const identity = { tenantId: "dev", agentId: agent };
    const stub = stubOf(agent);
    expect((await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { max_retries: 2 } })).status).toBe(200);
    let failures = 0;
    await runInDurableObject(stub, async (instance) => {
      const { state, runner } = MemoryAgent.testAccess(instance);
      runner.retryDelay = () => 0;
      state.models.sleep = async () => {};
      const local = state.models.primaryModel;
      state.models.primaryModel = {
        ...local,
        name: "flaky",
        segment: async (messages) => {
          if (messages[0]?.content.startsWith("FAIL")) {
            failures += 1;
            throw new Error("model unavailable");
          }
          return local.segment(messages);
        },
        extract: (texts) => local.extract(texts),
        nameRelations: (requests) => local.nameRelations(requests),
        compress: (text, target) => local.compress(text, target),
        summarize: (texts, max) => local.summarize(texts, max),
        queryKeywords: (query) => local.queryKeywords(query),
      };
    });
    const bad = await stub.submit(identity, "remember", { messages: [{ role: "user", content: "FAIL this one always" }] });
    const good = await stub.submit(identity, "remember", { messages: message(4) });
    if (!bad.ok || !good.ok) throw new Error("refused");
    await drainAlarms(agent);
    const badTask = await json<TaskStatus>(await call(`/v1/agents/${agent}/tasks/${bad.taskIds[0]}`));
    expect(badTask).toMatchObject({ status: "failed", attempts: 3, error: "model call failed after 3 attempt(s): model unavailable" });
    // 3 task attempts × (1 call + max_retries 2 retries).
    expect(failures).toBe(9);
    expect((await json<TaskStatus>(await call(`/v1/agents/${agent}/tasks/${good.taskIds[0]}`))).status).toBe("done");
    const stats = await json<{ counters: Record<string, number> }>(await call(`/v1/agents/${agent}/stats`));
    expect(stats.counters.model_failures).toBe(3);
  });

  it("answers 429 when the agent's queue is full, and accepts again once it drains", async () => {
    const agent = freshAgent("full");
    const stub = stubOf(agent);
    await fillQueue(agent, (i) => ({ id: `tsk_fill${String(i).padStart(12, "0")}`, kind: "remember", payload: { messages: message(i) } }));
    const res = await call(`/v1/agents/${agent}/remember`, { body: { messages: message(0) } });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("5");
    expect((await json<{ error: { code: string } }>(res)).error.code).toBe("queue_full");
    await runInDurableObject(stub, (_instance, ctx) => {
      ctx.storage.sql.exec("DELETE FROM tasks");
    });
    expect((await call(`/v1/agents/${agent}/remember`, { body: { messages: message(0) } })).status).toBe(202);
  });

  it("never refuses a remember because of the agent's own pending compression cycles", async () => {
    const agent = freshAgent("bg-full");
    const stub = stubOf(agent);
    await fillQueue(agent, (i) => ({ id: `tsk_bg${String(i).padStart(14, "0")}`, kind: "compressMemories", payload: null }));
    expect((await call(`/v1/agents/${agent}/remember`, { body: { messages: message(1) } })).status).toBe(202);
    // Asking for more cycles than the limit allows at once is refused.
    expect((await call(`/v1/agents/${agent}/compress`, { body: { cycles: 1 } })).status).toBe(429);
    await runInDurableObject(stub, (_instance, ctx) => {
      ctx.storage.sql.exec("DELETE FROM tasks WHERE kind = 'compressMemories'");
    });
  });

  it("runs the tasks an earlier version queued under a kind since renamed, and recognises their Idempotency-Keys", async () => {
    const agent = freshAgent("renamed");
    const identity = { tenantId: "dev", agentId: agent };
    const payload = { content: "The Orion launch moved to the Vega pad." };
    // The rows an agent of the previous version left: a create_memory queued as `memorize`, its
    // Idempotency-Key fingerprinted under that name, and the alarm that would bring the object back.
    await runInDurableObject(stubOf(agent), async (instance, ctx) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.bind(identity);
      const now = Date.now();
      ctx.storage.sql.exec(
        "INSERT INTO tasks (id, kind, lane, payload, status, created_at) VALUES ('tsk_oldmemorize00001', 'memorize', 'write', ?, 'queued', ?)",
        JSON.stringify(payload),
        now,
      );
      state.keys.record("old-key", { fingerprint: await fingerprint("memorize", payload, 1), taskIds: ["tsk_oldmemorize00001"] }, now);
      await ctx.storage.setAlarm(now);
    });
    await abortAllDurableObjects();
    await drainAlarms(agent);
    const task = await json<TaskStatus & { kind: string }>(await call(`/v1/agents/${agent}/tasks/tsk_oldmemorize00001`));
    expect(task).toMatchObject({ status: "done", kind: "createMemory" });
    const { db, key } = await agentRows(agent);
    const memories = await db.prepare("SELECT content FROM nodes WHERE agent = ? AND kind = 'memory'").bind(key).all<{ content: string }>();
    expect(memories.results.map((r) => r.content)).toEqual([expect.stringContaining("Vega pad")]);
    // The client's retry of that write after the upgrade is the same request: answered, not queued again.
    const retry = await call(`/v1/agents/${agent}/memories`, { body: payload, headers: { "Idempotency-Key": "old-key" } });
    expect(retry.status).toBeLessThan(300);
    expect(await json(retry)).toMatchObject({ task_id: "tsk_oldmemorize00001" });
    const again = await db.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ? AND kind = 'memory'").bind(key).first<{ n: number }>();
    expect(again?.n).toBe(1);
  });
});
