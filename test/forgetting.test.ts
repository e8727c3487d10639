import {
  abortAllDurableObjects,
  createExecutionContext,
  createScheduledController,
  env,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { enqueueTask } from "../src/agent/agent-tasks";
import worker from "../src";
import { codePointLength } from "../src/text/code-points";
import { agentRows, call, drainAlarms, freshAgent, json, recallJson, recallText, rememberAndWait, stubOf, type Msg } from "./helpers";
import { scanCounts } from "./agent-access";
import { MemoryAgent } from "../src/agent/memory-agent";

interface LinkView {
  source: number;
  target: number;
  relation: string;
  strength: number;
  pinned: boolean;
  dangling: boolean;
}
interface NodeView {
  node_id: number;
  content: string;
  phrase: string;
  scan_count: number;
  importance: number;
  links: { outgoing: LinkView[]; incoming: LinkView[] };
}

/** Queues `n` compression cycles and waits until they (and anything else queued) are done. */
async function cycles(agentId: string, n: number): Promise<void> {
  const res = await call(`/v1/agents/${agentId}/compress`, { body: { cycles: n } });
  expect(res.status).toBe(202);
  await drainAlarms(agentId);
}

async function cycleCount(agentId: string): Promise<number> {
  return (await json<{ counters: Record<string, number> }>(await call(`/v1/agents/${agentId}/stats`))).counters.cycles ?? 0;
}

/** Runs cycles until `target` cycles have run in total. */
async function cyclesUntil(agentId: string, target: number): Promise<void> {
  const done = await cycleCount(agentId);
  if (target > done) await cycles(agentId, target - done);
  expect(await cycleCount(agentId)).toBe(target);
}

async function nodeIdOf(agentId: string, content: string): Promise<number> {
  const { db, key } = await agentRows(agentId);
  const row = await db.prepare("SELECT id FROM nodes WHERE agent = ? AND content = ?").bind(key, content).first<{ id: number }>();
  if (!row) throw new Error(`no node ${content}`);
  return row.id;
}

async function node(agentId: string, id: number): Promise<NodeView | undefined> {
  const res = await call(`/v1/agents/${agentId}/nodes/${id}`);
  return res.status === 404 ? undefined : json<NodeView>(res);
}

const A0 = "Dave went over the plan with Carol.";
const A1 = "Phoenix hired Alice in early March.";
const first: Msg[] = [A0, A1].map((content) => ({ role: "user", content }));
// Four new entities (Erin, Tokyo, Grace, login bug): Alice, Dave and Carol leave the focus, Phoenix stays.
const second: Msg[] = ["Erin is going to Tokyo in late August.", "Grace fixed the login bug."].map((content) => ({
  role: "user",
  content,
}));

describe("the forgetting lifecycle (docs/design.md §6)", () => {
  /*
   * A0 links out to Dave and Carol (strength 1 from the moment they leave focus, at the second
   * remember), to A1 (下文, 0.5 from the start) and to the first remember's episode (属于, 0.5 from
   * the start). After c cycles (the first ran after the first remember, the second after the
   * second remember):
   *   A0 → Dave, A0 → Carol = 0.97^(c−1);   A0 → A1 = A0 → episode = 0.5 · 0.97^c
   *   importance(A0) = 2 · 0.97^(c−1) + 0.97^c = 2.97 · 0.97^(c−1)
   *   cycle 36: 1.0227 → protected;  cycle 37: 0.9921 → compressed to ⌊35 · 0.9921⌋ = 34;
   *   cycle 100: 0.1456 → ⌊5.10⌋ = 5;  cycle 101: 0.1412 → ⌊4.94⌋ = 4 < 5 → deleted.
   * Carol (entity, 5 code points) links out to A0 and A1: 2 · 0.97^(c−1) < 1 from cycle 24 →
   * ⌊5 · 0.9925⌋ = 4 → deleted; A0 → Carol then dangles. A1 stays linked to Phoenix, which is
   * still in focus: pinned, protected, so it is there to remember that A0 was forgotten.
   * The episodes hold only their 包含 links (0.5 to each of two segments): the first (71 code
   * points) has importance 0.97^c and goes at cycle 88 (⌊71 · 0.0685⌋ = 4), the second (65) has
   * 0.97^(c−1) and goes at cycle 86.
   */
  it("decays, compresses, deletes and leaves dangling traces exactly as the formulas predict", async () => {
    const agent = freshAgent("life");
    await rememberAndWait(agent, first);
    await rememberAndWait(agent, second);
    await drainAlarms(agent);
    expect(await cycleCount(agent)).toBe(2);
    const focus = await json<{ focus: { name: string }[] }>(await call(`/v1/agents/${agent}/focus`));
    expect(focus.focus.map((f) => f.name)).toEqual(["Grace", "login bug", "Erin", "Tokyo", "Phoenix"]);

    const a0 = await nodeIdOf(agent, A0);
    const a1 = await nodeIdOf(agent, A1);
    const carol = await nodeIdOf(agent, "Carol");
    const dave = await nodeIdOf(agent, "Dave");
    const linkOf = (n: NodeView | undefined, target: number) => n?.links.outgoing.find((l) => l.target === target);

    // Cycle 2: the links that left focus decayed once from 1; the neighbour link twice from 0.5.
    let view = await node(agent, a0);
    expect(linkOf(view, dave)?.strength).toBeCloseTo(0.97, 12);
    expect(linkOf(view, dave)?.pinned).toBe(false);
    expect(linkOf(view, a1)?.strength).toBeCloseTo(0.5 * 0.97 ** 2, 12);
    expect(view?.importance).toBeCloseTo(2.97 * 0.97, 12);
    expect(view?.scan_count).toBe(2);
    expect(linkOf(await node(agent, a1), await nodeIdOf(agent, "Phoenix"))?.pinned).toBe(true);

    await cyclesUntil(agent, 23);
    expect(await node(agent, carol)).toBeDefined();
    await cyclesUntil(agent, 24);
    expect(await node(agent, carol)).toBeUndefined();
    view = await node(agent, a0);
    expect(linkOf(view, carol)).toMatchObject({ dangling: true });
    expect(linkOf(view, carol)?.strength).toBeCloseTo(0.97 ** 23, 12);

    await cyclesUntil(agent, 36);
    view = await node(agent, a0);
    expect(view?.content).toBe(A0);
    expect(view?.importance).toBeCloseTo(2.97 * 0.97 ** 35, 12);

    await cyclesUntil(agent, 37);
    view = await node(agent, a0);
    expect(view?.importance).toBeCloseTo(2.97 * 0.97 ** 36, 12);
    expect(view?.content).not.toBe(A0);
    expect(codePointLength(view?.content ?? "")).toBeLessThanOrEqual(34);
    expect(codePointLength(view?.content ?? "")).toBeGreaterThan(0);
    expect(codePointLength(view?.phrase ?? "")).toBeLessThanOrEqual(20);
    expect(view?.scan_count).toBe(37);

    await cyclesUntil(agent, 100);
    view = await node(agent, a0);
    expect(codePointLength(view?.content ?? "")).toBeLessThanOrEqual(5);
    expect(codePointLength(view?.content ?? "")).toBeGreaterThan(0);

    await cyclesUntil(agent, 101);
    expect(await node(agent, a0)).toBeUndefined();
    const a1View = await node(agent, a1);
    expect(linkOf(a1View, a0)).toMatchObject({ relation: "上文", dangling: true });
    expect(linkOf(a1View, a0)?.strength).toBeCloseTo(0.5 * 0.97 ** 101, 12);

    // "I once knew": recall from the focus meets A1's dangling link and says so, after the memories.
    const text = await recallText(agent, { keywords: [], locale: "zh" });
    // (The segments of the second submission carry traces too: their episode was forgotten.)
    expect(text, text).toContain(`[已遗忘] 关于「${a1View?.phrase}」的一段记忆已经遗忘`);
    expect(text.indexOf("[已遗忘]"), text).toBeGreaterThan(text.lastIndexOf("[记忆]"));
    expect(await recallText(agent, { keywords: [], locale: "en" })).toContain(
      `[forgotten] A memory about "${a1View?.phrase}" has been forgotten`,
    );
    const items = await recallJson(agent, { keywords: [] });
    const trace = items.items.find((i) => i.type === "forgotten" && i.phrase === a1View?.phrase);
    // One trace per source, named by its strongest dangling link: A1's links to the deleted
    // entities (0.97^100 ≈ 0.048 each) outweigh A1 → its deleted episode (属于, 0.5 · 0.97^101)
    // and A1 → A0 (上文, 0.5 · 0.97^101); of those equal ones the oldest node, Dave (相关: A1 does
    // not mention him), names it.
    expect(trace).toMatchObject({ type: "forgotten", relation: "相关" });
    expect(trace?.scores.strength).toBeCloseTo(0.97 ** 100, 12);
    // Traces rank after every real memory, and there are at most a few.
    const kinds = items.items.map((i) => i.type);
    expect(kinds.lastIndexOf("memory")).toBeLessThan(kinds.indexOf("forgotten"));
    expect(kinds.filter((k) => k === "forgotten").length).toBeLessThanOrEqual(3);

    const stats = await json<{
      links: { dangling: number };
      counters: Record<string, number>;
      characters: { held: number; remembered: number };
    }>(await call(`/v1/agents/${agent}/stats`));
    expect(stats.counters.cycles).toBe(101);
    // Carol and Alice (2 links each) at cycle 24, Dave (3 links) at cycle 38, the episodes at
    // cycles 86 and 88, A0 at cycle 101.
    expect(stats.counters.nodes_deleted).toBe(6);
    for (const gone of ["Carol", "Alice", "Dave"]) {
      const { db, key } = await agentRows(agent);
      expect(await db.prepare("SELECT id FROM nodes WHERE agent = ? AND content = ?").bind(key, gone).first()).toBeNull();
    }
    expect(stats.counters.nodes_compressed).toBeGreaterThan(0);
    expect(stats.links.dangling).toBeGreaterThan(0);
    expect(stats.characters.held).toBeLessThan(stats.characters.remembered);
  });
});

describe("focus protection", () => {
  it("leaves a focused node untouched for 200 cycles; once out of focus its links decay from 1", async () => {
    const agent = freshAgent("focus");
    await rememberAndWait(agent, first);
    await drainAlarms(agent);
    const alice = await nodeIdOf(agent, "Alice");
    const a1 = await nodeIdOf(agent, A1);
    await cyclesUntil(agent, 200);
    const view = await node(agent, alice);
    expect(view?.content).toBe("Alice");
    expect(view?.scan_count).toBe(0);
    expect(view?.links.outgoing.every((l) => l.strength === 1 && l.pinned)).toBe(true);
    expect((await node(agent, a1))?.content).toBe(A1);

    // Five new entities push Alice out; the cycle after that remember decays her links once.
    await rememberAndWait(agent, [...second, { role: "user", content: "架构评审时强调了安全性，建议使用短时效token。" }]);
    await drainAlarms(agent);
    expect(await cycleCount(agent)).toBe(201);
    const after = await node(agent, alice);
    expect(after?.links.outgoing.length).toBeGreaterThan(0);
    for (const link of after?.links.outgoing ?? []) {
      expect(link.pinned).toBe(false);
      expect(link.strength).toBeCloseTo(0.97, 12);
    }
  });
});

describe("a released node that is then deleted", () => {
  it("leaves its dangling traces at the strength of its release, whether the graph is in memory or read again from D1", async () => {
    // Found by the fault suite (test/faults): the release lived only on the deleted node's row.
    const agent = freshAgent("release-delete");
    const put = await call(`/v1/agents/${agent}/config`, {
      method: "PUT",
      body: { focus_limit: 1, decay_rate: 0.5, auto_compress: false },
    });
    expect(put.status).toBe(200);
    await rememberAndWait(agent, [{ role: "user", content: "Alice reviewed the budget on Monday." }]);
    const segment = await nodeIdOf(agent, "Alice reviewed the budget on Monday.");
    const focus = await json<{ focus: { node_id: number; name: string }[] }>(await call(`/v1/agents/${agent}/focus`));
    expect(focus.focus).toHaveLength(1);
    const entity = focus.focus[0]?.node_id ?? -1;
    // Pinned through three cycles, then released by the next remember (strength 1 again), then one
    // cycle: 0.5, and the entity (importance 0.5 or less, a few characters) is deleted.
    await cycles(agent, 3);
    expect((await node(agent, segment))?.links.outgoing.find((l) => l.target === entity)?.pinned).toBe(true);
    await rememberAndWait(agent, [{ role: "user", content: "Bob fixed the login bug in Oslo." }]);
    await cycles(agent, 1);
    expect(await node(agent, entity)).toBeUndefined();
    const trace = async () => (await node(agent, segment))?.links.outgoing.find((l) => l.target === entity);
    const inMemory = await trace();
    expect(inMemory).toMatchObject({ dangling: true, pinned: false, strength: expect.closeTo(0.5, 12) });
    await abortAllDurableObjects();
    expect(await trace()).toEqual(inMemory);
    // And it keeps decaying from there, the same either way.
    await cycles(agent, 1);
    expect((await trace())?.strength).toBeCloseTo(0.25, 12);
  });
});

describe("per-agent configuration", () => {
  it("rejects every parameter's bad values with a clear 400 and changes nothing", async () => {
    const agent = freshAgent("config");
    const bad: Record<string, unknown[]> = {
      focus_limit: [0, 51, 1.5, "5", null],
      decay_rate: [0, -0.1, 1.01, "0.9"],
      link_initial_strength: [0, 1.5, -1],
      delete_threshold: [0, 2.5, 1001],
      link_break_threshold: [0, 1, 1.2],
      time_slice_ms: [5, 300_001, 10.5],
      max_retries: [-1, 51, 2.5],
      default_search_depth: [0, 7],
      capacity: [9, 1_000_001, 100.5],
      max_pins: [-1, 1001, 2.5, "5"],
      auto_compress: ["yes", 1],
      recall_neighbour_weight: [-0.1, 1.5, "0.4"],
      recall_speaker_weight: [-1, 3],
      recall_graph_prior: [-0.1, 2],
      recall_vectors: ["yes", 0],
      retention_days: [0, 36_501, 1.5, "30"],
      model_policy: ["local", null, { extraction: "openai" }, { ranking: "local" }, { conflicts: null }],
    };
    for (const [key, values] of Object.entries(bad)) {
      for (const value of values) {
        const res = await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { [key]: value } });
        expect(res.status, `${key}=${JSON.stringify(value)}`).toBe(400);
        const body = await json<{ error: { code: string; message: string } }>(res);
        expect(body.error.code).toBe("validation_failed");
        expect(body.error.message).toContain(key);
      }
    }
    const unknown = await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { decay: 0.5 } });
    expect(unknown.status).toBe(400);
    const config = await json<Record<string, unknown>>(await call(`/v1/agents/${agent}/config`));
    expect(config).toEqual({
      focus_limit: 5,
      decay_rate: 0.97,
      link_initial_strength: 0.5,
      delete_threshold: 5,
      link_break_threshold: 0.01,
      time_slice_ms: 30_000,
      max_retries: 15,
      default_search_depth: 2,
      capacity: 10_000,
      auto_compress: true,
      max_pins: 50,
      reinforce_step: 0.3,
      recall_neighbour_weight: 0.4,
      recall_entity_weight: 0.2,
      recall_speaker_weight: 1,
      recall_time_weight: 0.5,
      recall_graph_prior: 0.1,
      recall_vectors: true,
      retention_days: null,
      model_policy: { extraction: "default", compression: "default", conflicts: "default", summaries: "default" },
    });
  });

  it("pauses forgetting when auto_compress is off: no cycle follows a remember", async () => {
    const agent = freshAgent("paused");
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } });
    await rememberAndWait(agent, first);
    await drainAlarms(agent);
    expect(await cycleCount(agent)).toBe(0);
    await cycles(agent, 1);
    expect(await cycleCount(agent)).toBe(1);
  });

  it("applies a change from the next cycle", async () => {
    const agent = freshAgent("config-next");
    await rememberAndWait(agent, first);
    await rememberAndWait(agent, second);
    await drainAlarms(agent);
    const a0 = await nodeIdOf(agent, A0);
    const dave = await nodeIdOf(agent, "Dave");
    const strength = async () => (await node(agent, a0))?.links.outgoing.find((l) => l.target === dave)?.strength;
    expect(await strength()).toBeCloseTo(0.97, 12);
    const res = await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { decay_rate: 0.5, focus_limit: 3 } });
    expect(await json(res)).toMatchObject({ decay_rate: 0.5, focus_limit: 3, link_initial_strength: 0.5 });
    expect(await strength()).toBeCloseTo(0.97, 12);
    await cycles(agent, 1);
    expect(await strength()).toBeCloseTo(0.97 * 0.5, 12);
    await cycles(agent, 2);
    expect(await strength()).toBeCloseTo(0.97 * 0.5 ** 3, 12);
  });
});

describe("the cron safety net", () => {
  it("wakes exactly the agents with due work, and does no compression itself", async () => {
    const due = freshAgent("cron-due");
    const idle = freshAgent("cron-idle");
    const later = freshAgent("cron-later");
    for (const agent of [due, idle, later]) {
      await rememberAndWait(agent, [{ role: "user", content: `Agent ${agent} remembers the Orion checklist.` }]);
      await drainAlarms(agent);
    }
    // `due` has a queued task whose alarm was lost; `later` has work due only in an hour.
    const lost = await runInDurableObject(stubOf(due), async (instance, ctx) => {
      const { state } = MemoryAgent.testAccess(instance);
      const task = enqueueTask(state.queue, "compressMemories", null, { id: "tsk_lostalarm0000000", now: Date.now() });
      await ctx.storage.deleteAlarm();
      return task.id;
    });
    const now = Date.now();
    await env.DB.prepare("UPDATE agents SET due_at = ? WHERE agent_id = ?")
      .bind(now - 60_000, due)
      .run();
    await env.DB.prepare("UPDATE agents SET due_at = ? WHERE agent_id = ?")
      .bind(now + 3_600_000, later)
      .run();

    const ctx = createExecutionContext();
    worker.scheduled(createScheduledController({ scheduledTime: new Date(now), cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    const task = await json<{ status: string }>(await call(`/v1/agents/${due}/tasks/${lost}?wait_ms=30000`));
    expect(task.status).toBe("done");
    expect(await cycleCount(due)).toBe(2);
    expect(await cycleCount(idle)).toBe(1);
    expect(await cycleCount(later)).toBe(1);
    // The registry is tidied when the drain settles, after its last task has finished: waited for.
    await vi.waitFor(
      async () => {
        const registry = await env.DB.prepare("SELECT agent_id, due_at FROM agents WHERE agent_id IN (?, ?, ?) ORDER BY agent_id")
          .bind(due, idle, later)
          .all<{ agent_id: string; due_at: number | null }>();
        expect(Object.fromEntries(registry.results.map((r) => [r.agent_id, r.due_at]))).toEqual({
          [due]: null,
          [idle]: null,
          [later]: now + 3_600_000,
        });
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe("reads cost the registry nothing", () => {
  it("recall and search on an idle agent write no D1 registry row; the one alarm they arm is the usage report's", async () => {
    const agent = freshAgent("reads-idle");
    await rememberAndWait(agent, [{ role: "user", content: "Mira keeps the Vega launch notes in the blue binder." }]);
    await drainAlarms(agent);
    const row = () =>
      env.DB.prepare("SELECT due_at, last_active_at FROM agents WHERE agent_id = ?")
        .bind(agent)
        .first<{ due_at: number | null; last_active_at: number }>();
    const before = await row();
    expect(before?.due_at).toBeNull();
    await new Promise((r) => setTimeout(r, 5)); // a write now would change last_active_at
    expect((await recallJson(agent, { keywords: ["Vega"] })).items.length).toBeGreaterThan(0);
    const search = await call(`/v1/agents/${agent}/search`, { body: { query: "launch notes", mode: "hybrid", top_k: 5 } });
    expect(search.status).toBe(200);
    expect(await row()).toEqual(before);
    // The reads are the day's usage: reported once, when the alarm armed for it rings (not before).
    const alarm = await runInDurableObject(stubOf(agent), (_instance, ctx) => ctx.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now());
    expect(await runDurableObjectAlarm(stubOf(agent))).toBe(true);
    const reported = await env.DB.prepare("SELECT metric, value FROM agent_usage WHERE agent_id = ? AND metric LIKE 'requests.%'")
      .bind(agent)
      .all<{ metric: string; value: number }>();
    expect(Object.fromEntries(reported.results.map((r) => [r.metric, r.value]))).toMatchObject({
      "requests.recall": 1,
      "requests.searchMemories": 1,
    });
    expect(await row()).toEqual(before);
    expect(await runInDurableObject(stubOf(agent), (_instance, ctx) => ctx.storage.getAlarm())).toBeNull();
  });
});

describe("cycles queued back to back", () => {
  /** Nodes and links of an agent, for comparing twins (contents compared by length bound only). */
  async function network(agentId: string) {
    const { db, key } = await agentRows(agentId);
    const scans = await scanCounts(agentId);
    const nodes = (
      await db
        .prepare("SELECT id, original_length AS originalLength, content FROM nodes WHERE agent = ? ORDER BY id")
        .bind(key)
        .all<{ id: number; originalLength: number; content: string }>()
    ).results.map((n) => ({ ...n, scanCount: scans.get(n.id) }));
    const links = (
      await db
        .prepare("SELECT source, target, relation, level FROM links WHERE agent = ? ORDER BY source, target, relation")
        .bind(key)
        .all()
    ).results;
    return { nodes, links };
  }

  it("run as one pass that ends where the same cycles run one by one end", async () => {
    const single = freshAgent("single");
    const pass = freshAgent("pass");
    for (const agent of [single, pass]) {
      await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { decay_rate: 0.9 } });
      await rememberAndWait(agent, first);
      await rememberAndWait(agent, second);
      await drainAlarms(agent);
    }
    // 20 more cycles at 0.9: A0's importance falls to 2.45 · 0.9^21 ≈ 0.27 (compressed, not deleted).
    for (let i = 0; i < 20; i++) await cycles(single, 1);
    const queued = await json<{ task_ids: string[] }>(await call(`/v1/agents/${pass}/compress`, { body: { cycles: 20 } }));
    // Waiting on a cycle merged into the pass returns when the pass is done.
    const merged = await json<{ status: string; result: Record<string, unknown> }>(
      await call(`/v1/agents/${pass}/tasks/${queued.task_ids[19]}?wait_ms=30000`),
    );
    expect(merged).toMatchObject({ status: "done", result: { merged_into: queued.task_ids[0] } });
    await drainAlarms(pass);
    const leader = await json<{ result: Record<string, number> }>(await call(`/v1/agents/${pass}/tasks/${queued.task_ids[0]}`));
    expect(leader.result.cycles).toBe(20);
    expect(await cycleCount(pass)).toBe(await cycleCount(single));

    const a = await network(single);
    const b = await network(pass);
    // Same survivors, scan counts and links (levels to the last bit: the same clock steps).
    expect(b.nodes.map((n) => [n.id, n.scanCount])).toEqual(a.nodes.map((n) => [n.id, n.scanCount]));
    expect(b.links).toEqual(a.links);
    expect(a.nodes.some((n) => codePointLength(n.content) < n.originalLength)).toBe(true);
    // Compressed within the same bound, ⌊original length × importance⌋ (the texts may differ: the
    // pass extracts once from the fuller text instead of several times).
    for (const [i, n] of a.nodes.entries()) {
      const twin = b.nodes[i];
      const { importance } = (await node(single, n.id)) ?? { importance: Number.NaN };
      const bound = importance >= 1 ? n.originalLength : Math.floor(n.originalLength * importance);
      expect(codePointLength(n.content), `node ${n.id}`).toBeLessThanOrEqual(bound);
      expect(codePointLength(twin?.content ?? ""), `twin of node ${n.id}`).toBeLessThanOrEqual(bound);
      expect(codePointLength(twin?.content ?? "") < n.originalLength).toBe(codePointLength(n.content) < n.originalLength);
    }
  });
});
