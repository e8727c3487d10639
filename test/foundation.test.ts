/**
 * The foundation the capabilities build on (docs/design.md): a task kind is declared once and is
 * wired by being declared; queued payloads, checkpoints and write intents that this code cannot
 * read fail their task for good at the first attempt; times are converted once, at the edge, and
 * stored exactly; the object's schema migrates under queued work.
 */
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { migrateAgentSchema } from "../src/engine/stores/do-schema";
import { QueueRunner } from "../src/engine/queue-runner";
import { defineTask } from "../src/engine/define-task";
import { TASKS } from "../src/agent/agent-tasks";
import { InvalidPayloadError, TaskKinds } from "../src/engine/task-kinds";
import { call, drainAlarms, freshAgent, json, rememberAndWait, stubOf } from "./helpers";
import { MemoryAgent } from "../src/agent/memory-agent";

const NotePayload = z.object({ note: z.string() }).strict();

/** A complete new kind: its payload, lane, result and runner. Nothing else is needed to run it. */
const noteTask = defineTask({
  lane: "write",
  payload: NotePayload,
  result: z.object({ echoed: z.string(), seq: z.number().int() }),
  async run(_rt, task) {
    return { status: "done", result: { echoed: task.payload.note, seq: task.seq } };
  },
});

// A kind that is declared but not wired does not compile (checked by `npm run typecheck`):
// prettier-ignore
// @ts-expect-error a kind without a runner is not a task definition
defineTask({ lane: "write", payload: NotePayload, result: z.null() });
// prettier-ignore
// @ts-expect-error a runner must answer what the kind's result schema says
defineTask({ lane: "write", payload: NotePayload, result: z.object({ n: z.number() }), async run() { return { status: "done", result: { n: "one" } }; } });
// prettier-ignore
// @ts-expect-error a lane is one of the queue's lanes
defineTask({ lane: "whenever", payload: NotePayload, result: z.null(), async run() { return { status: "done", result: null }; } });
// prettier-ignore
// @ts-expect-error the runner reads the payload as the kind's own type
defineTask({ lane: "write", payload: NotePayload, result: z.null(), async run(_rt, task) { const n: number = task.payload.note; return { status: "done", result: n === 0 ? null : null }; } });

describe("the task registry", () => {
  it("runs a kind declared once (definition + registry entry) through the queue, and validates its payload", async () => {
    const agent = freshAgent("note");
    const outcome = await runInDurableObject(stubOf(agent), async (instance, ctx) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.bind({ tenantId: "dev", agentId: agent });
      const registry = new TaskKinds({ ...TASKS, note: noteTask });
      expect(() => registry.enqueue(state.queue, "note", { note: 1 }, { now: Date.now() })).toThrow(InvalidPayloadError);
      expect(() => registry.enqueue(state.queue, "note", { note: "x", extra: true }, { now: Date.now() })).toThrow(InvalidPayloadError);
      const task = registry.enqueue(state.queue, "note", { note: "hello" }, { now: Date.now() });
      await new QueueRunner(state, ctx, registry).runFromAlarm();
      return state.queue.get(task.id);
    });
    expect(outcome).toMatchObject({ kind: "note", lane: "write", status: "done", attempts: 1 });
    expect(JSON.parse(outcome?.result ?? "null")).toMatchObject({ echoed: "hello" });
  });

  it("fails a stored task of a kind this code does not know, at once, and moves on", async () => {
    const agent = freshAgent("unknown-kind");
    await rememberAndWait(agent, [{ role: "user", content: "Orion ships on Monday." }]);
    await runInDurableObject(stubOf(agent), (_instance, ctx) => {
      ctx.storage.sql.exec(
        "INSERT INTO tasks (id, kind, lane, payload, status, created_at, position) VALUES ('tsk_unknownkind00000', 'note', 'write', '{}', 'queued', ?, 1e9)",
        Date.now(),
      );
    });
    const after = await call(`/v1/agents/${agent}/remember`, { body: { messages: [{ role: "user", content: "Vega ships on Friday." }] } });
    await drainAlarms(agent);
    const failed = await json<{ status: string; attempts: number; error: string }>(
      await call(`/v1/agents/${agent}/tasks/tsk_unknownkind00000`),
    );
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.error).toContain('unknown task kind "note"');
    const { task_id } = await json<{ task_id: string }>(after);
    expect((await json<{ status: string }>(await call(`/v1/agents/${agent}/tasks/${task_id}`))).status).toBe("done");
  });
});

describe("stored work this code cannot read", () => {
  async function storeAndRun(agent: string, id: string, checkpoint: string | null, intent: string | null) {
    await rememberAndWait(agent, [{ role: "user", content: "Orion ships on Monday." }]);
    await runInDurableObject(stubOf(agent), (instance, ctx) => {
      const sql = ctx.storage.sql;
      sql.exec(
        `INSERT INTO tasks (id, kind, lane, payload, status, created_at, position, checkpoint)
         VALUES (?, 'remember', 'write', '{"messages":[{"role":"user","content":"Vega ships on Friday."}]}', 'queued', ?, 1e9, ?)`,
        id,
        Date.now(),
        checkpoint,
      );
      if (intent !== null) sql.exec("INSERT INTO intents (task_id, intent) VALUES (?, ?)", id, intent);
      // Written behind the store's back (as an older version of the code would have left it).
      MemoryAgent.testAccess(instance).state.intents.forget();
    });
    const next = await call(`/v1/agents/${agent}/remember`, { body: { messages: [{ role: "user", content: "Lyra ships in May." }] } });
    await drainAlarms(agent);
    const task = await json<{ status: string; attempts: number; error: string }>(await call(`/v1/agents/${agent}/tasks/${id}`));
    const { task_id } = await json<{ task_id: string }>(next);
    const nextTask = await json<{ status: string }>(await call(`/v1/agents/${agent}/tasks/${task_id}`));
    return { task, nextTask };
  }

  it("a checkpoint that does not parse fails its task at the first attempt, with the reason", async () => {
    const { task, nextTask } = await storeAndRun(freshAgent("bad-checkpoint"), "tsk_badcheckpoint000", '{"result": 3', null);
    expect(task).toMatchObject({ status: "failed", attempts: 1 });
    expect(task.error).toContain("unreadable checkpoint");
    expect(nextTask.status).toBe("done");
  });

  it("a write intent that does not parse fails its task at the first attempt and writes nothing", async () => {
    const agent = freshAgent("bad-intent");
    const { task, nextTask } = await storeAndRun(agent, "tsk_badintent0000000", null, '{"ops":[{"type":"createNodes","nodes":"x"}]}');
    expect(task).toMatchObject({ status: "failed", attempts: 1 });
    expect(task.error).toContain("unreadable write intent");
    expect(nextTask.status).toBe("done");
    const leftover = await runInDurableObject(stubOf(agent), (_instance, ctx) =>
      ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM intents").one(),
    );
    expect(leftover.n).toBe(0);
  });
});

describe("times are converted once, at the edge, and stored exactly", () => {
  async function messageTime(agent: string, timestamp: unknown): Promise<{ status: number; time?: number | null }> {
    const res = await call(`/v1/agents/${agent}/remember`, {
      body: { messages: [{ role: "user", content: `The Orion review happened (${String(timestamp)}).`, timestamp }] },
    });
    if (res.status !== 202) return { status: res.status };
    const { task_id } = await json<{ task_id: string }>(res);
    await call(`/v1/agents/${agent}/tasks/${task_id}?wait_ms=30000`);
    const task = await json<{ status: string }>(await call(`/v1/agents/${agent}/tasks/${task_id}`));
    expect(task.status, JSON.stringify(task)).toBe("done");
    const found = await json<{ items: { message_time: number | null; content: string }[] }>(
      await call(`/v1/agents/${agent}/search`, { body: { query: String(timestamp), mode: "keyword", top_k: 50 } }),
    );
    const item = found.items.find((i) => i.content.includes(`(${String(timestamp)})`));
    return { status: 202, time: item?.message_time };
  }

  it("before 1970 and between 1970 and 1973, as ISO dates and as seconds", async () => {
    const agent = freshAgent("times");
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } });
    expect(await messageTime(agent, "1969-07-20T20:17:40Z")).toEqual({ status: 202, time: Date.parse("1969-07-20T20:17:40Z") });
    expect(await messageTime(agent, "1971-03-01T12:00:00.250+02:00")).toEqual({
      status: 202,
      time: Date.parse("1971-03-01T12:00:00.250+02:00"),
    });
    expect(await messageTime(agent, "1900-01-01T00:00:00Z")).toEqual({ status: 202, time: Date.parse("1900-01-01T00:00:00Z") });
    // Numbers below 1e11 in magnitude are seconds (documented), converted once.
    expect(await messageTime(agent, -1_000_000_000)).toEqual({ status: 202, time: -1_000_000_000_000 });
    expect(await messageTime(agent, 40_000_000)).toEqual({ status: 202, time: 40_000_000_000 });
    expect(await messageTime(agent, 1_732_300_000_123)).toEqual({ status: 202, time: 1_732_300_000_123 });
  });

  it("refuses times outside the years 0001–9999 and non-numbers with 400, writing nothing", async () => {
    const agent = freshAgent("bad-times");
    for (const timestamp of [1e308, 1e16, -1e16, "10000-01-01T00:00:00Z", "yesterday", true, null]) {
      expect((await messageTime(agent, timestamp)).status, String(timestamp)).toBe(400);
    }
    const stats = await json<{ nodes: { total: number }; queue: { done: number; queued: number } }>(
      await call(`/v1/agents/${agent}/stats`),
    );
    expect(stats.nodes.total).toBe(0);
    expect(stats.queue.done + stats.queue.queued).toBe(0);
  });
});

describe("the object's schema", () => {
  it("migrates an object of the previous layout under queued work, which then runs", async () => {
    const agent = freshAgent("legacy");
    const migrated = await runInDurableObject(stubOf(agent), async (_instance, ctx) => {
      const sql = ctx.storage.sql;
      const tables = sql.exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      );
      for (const { name } of tables.toArray()) sql.exec(`DROP TABLE "${name}"`);
      migrateAgentSchema(sql, 2);
      // Work queued by the previous version: a remember and a compression cycle (payload null).
      sql.exec(
        `INSERT INTO tasks (id, kind, payload, status, background, ephemeral, created_at)
         VALUES ('tsk_legacyremember00', 'remember', '{"messages":[{"role":"user","content":"Orion ships on Monday.","timestamp":1732300000000}]}', 'queued', 0, 0, 1),
                ('tsk_legacycompress00', 'compress', 'null', 'queued', 1, 0, 2)`,
      );
      sql.exec(`INSERT INTO meta (key, value) VALUES ('identity', ?)`, JSON.stringify({ tenantId: "dev", agentId: agent }));
      migrateAgentSchema(sql);
      await ctx.storage.setAlarm(Date.now());
      return sql.exec<{ id: string; lane: string; position: number }>("SELECT id, lane, position FROM tasks ORDER BY seq").toArray();
    });
    expect(migrated.map((t) => [t.id, t.lane])).toEqual([
      ["tsk_legacyremember00", "write"],
      ["tsk_legacycompress00", "cycle"],
    ]);
    // The previous version's rows are found when the object wakes (kinds renamed since included).
    await abortAllDurableObjects();
    await drainAlarms(agent);
    for (const id of ["tsk_legacyremember00", "tsk_legacycompress00"]) {
      expect((await json<{ status: string }>(await call(`/v1/agents/${agent}/tasks/${id}`))).status, id).toBe("done");
    }
    const stats = await json<{ nodes: { segments: number } }>(await call(`/v1/agents/${agent}/stats`));
    expect(stats.nodes.segments).toBe(1);
  });
});
