/**
 * An agent past the graph's limits (docs/design.md, "Decision 3"): the object marks it in its own
 * storage when a load or a write finds it past them, so a later wake and the quiet work go
 * straight to the D1 path with no page of the network read; a write that may shrink it removes the
 * marker, and the next load counts again. The limits are lowered for the test (AgentNetworkAccess.pastLimits.limits).
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AgentState } from "../src/agent/agent-state";
import { MemoryAgent } from "../src/agent/memory-agent";
import { RecallQuerySchema } from "../src/operations/recall/schemas";
import { runRecall } from "../src/operations/recall/task";
import { SearchQuerySchema } from "../src/operations/search-memories/schemas";
import { runSearch } from "../src/operations/search-memories/task";
import { CHINESE_DESIGN_REVIEW, ENGLISH_TEAM, EXCHANGE, messages } from "./fixtures";
import { agentRows, call, drainAlarms, freshAgent, rememberAndWait, stubOf } from "./helpers";
import { statementsDuring } from "./agent-access";

const recallQuery = (r: Record<string, unknown>) => RecallQuerySchema.parse({ keywords: [], relations: [], locale: "en", ...r });

/** Runs `work` on the agent's object state. */
function inObject<T>(agent: string, work: (state: AgentState) => Promise<T> | T): Promise<T> {
  return runInDurableObject(stubOf(agent), (instance) => work(MemoryAgent.testAccess(instance).state));
}

async function linkCount(agent: string): Promise<number> {
  const { db, key } = await agentRows(agent);
  return (await db.prepare("SELECT count(*) AS n FROM links WHERE agent = ?").bind(key).first<{ n: number }>())?.n ?? 0;
}

const requests = [
  { query: "Who made the plate in pottery class?", start: "hybrid" },
  { keywords: ["Phoenix", "budget"], depth: 3, start: "focus" },
  { keywords: [], depth: 2, limit: 50, start: "focus" },
  { keywords: ["登录"], relations: ["关于", "下文"], start: "focus" },
  { keywords: ["登录", "budget"], start: "hybrid", limit: 20 },
];
const searches = ["Phoenix budget", "登录模块 JWT", "pottery plate"];

describe("an agent past the graph's limits", () => {
  it("is marked in the object once found past them: a wake and the quiet work read no page of it, and it answers as the graph does", async () => {
    const agent = freshAgent("past");
    // A quiet "second" longer than the test: only settle() runs the quiet work.
    await inObject(agent, (state) => {
      state.network.snapshotPolicy = { journalEntries: 64, quietMs: 10 * 60_000 };
    });
    await rememberAndWait(agent, messages(ENGLISH_TEAM, "e"));
    await rememberAndWait(agent, messages(CHINESE_DESIGN_REVIEW, "z"));
    await drainAlarms(agent);
    const held = await linkCount(agent);
    // Held, with its copy written; then limits a few links above it.
    await inObject(agent, async (state) => {
      await state.network.settle();
      expect(state.network.snapshots.exists()).toBe(true);
      state.network.pastLimits.limits = { nodes: 1_000_000, links: held + 5 };
    });
    await rememberAndWait(agent, EXCHANGE);
    const links = await linkCount(agent);
    expect(links, "the fixture's links").toBeGreaterThan(held + 5);

    await inObject(agent, async (state) => {
      // Grown past the limits while held: marked with counts no larger than the agent's, no copy kept.
      const marked = state.meta.get("pastLimits");
      expect(marked?.links).toBeGreaterThan(held + 5);
      expect(marked?.links).toBeLessThanOrEqual(links);
      expect(state.network.snapshots.exists()).toBe(false);
      // A wake (the graph dropped): no D1 statement to find out again, no graph.
      state.dropGraph();
      const wake = await statementsDuring(state, () => state.graph());
      expect(wake.result).toBeUndefined();
      expect(wake.statements, "D1 statements of a wake's load").toBe(0);
    });

    // A growing write keeps the marker; the quiet work after it starts no load.
    await rememberAndWait(agent, [{ role: "user", content: "Bobby fixed the login page on Friday." }]);
    await inObject(agent, async (state) => {
      expect(state.meta.get("pastLimits"), "marker after a remember").toBeDefined();
      state.dropGraph();
      const quiet = await statementsDuring(state, () => state.network.settle());
      expect(quiet.statements, "D1 statements of the quiet work").toBe(0);
      expect(state.network.snapshots.exists()).toBe(false);

      // The D1 path's answers, then the same reads from the graph (the limits raised): identical.
      const fromD1 = await statementsDuring(state, async () => {
        const recalled = [];
        for (const r of requests) recalled.push(await runRecall(state, recallQuery(r)));
        const found = [];
        for (const query of searches)
          found.push(await runSearch(state, SearchQuerySchema.parse({ query, mode: "keyword", top_k: 50, kinds: ["segment"] })));
        return { recalled, found };
      });
      expect(fromD1.statements, "the reads went to D1").toBeGreaterThan(0);
      expect(fromD1.result.found.every((f) => f.items.length > 0)).toBe(true);
      state.network.pastLimits.limits = { nodes: 1_000_000, links: 1_000_000 };
      state.dropGraph();
      const graph = await state.graph();
      expect(graph?.linkCount).toBe(await linkCount(agent));
      // Loaded: the marker, which no longer proves anything, is gone.
      expect(state.meta.get("pastLimits")).toBeUndefined();
      for (const [i, r] of requests.entries())
        expect(await runRecall(state, recallQuery(r)), JSON.stringify(r)).toEqual(fromD1.result.recalled[i]);
      for (const [i, query] of searches.entries())
        expect(await runSearch(state, SearchQuerySchema.parse({ query, mode: "keyword", top_k: 50, kinds: ["segment"] })), query).toEqual(
          fromD1.result.found[i],
        );
    });
  });

  it("counts again after a write that may shrink it, and is held once it fits", async () => {
    const agent = freshAgent("shrink");
    await inObject(agent, (state) => {
      state.network.snapshotPolicy = { journalEntries: 64, quietMs: 10 * 60_000 };
    });
    await rememberAndWait(agent, messages(ENGLISH_TEAM, "s"));
    await drainAlarms(agent);
    const before = await linkCount(agent);
    // A memory with outgoing links: forgetting it deletes them.
    const { db, key } = await agentRows(agent);
    const victim = await db
      .prepare(
        "SELECT l.source AS id, count(*) AS n FROM links l JOIN nodes n ON n.agent = l.agent AND n.id = l.source WHERE l.agent = ? AND n.kind = 'segment' GROUP BY l.source ORDER BY n DESC LIMIT 1",
      )
      .bind(key)
      .first<{ id: number; n: number }>();
    if (!victim) throw new Error("fixture: no segment with links");

    // One link past the limit: the load counts (one statement, no page) and marks it.
    await inObject(agent, async (state) => {
      state.network.pastLimits.limits = { nodes: 1_000_000, links: before - 1 };
      state.dropGraph();
      const load = await statementsDuring(state, () => state.graph());
      expect(load.result).toBeUndefined();
      expect(load.statements, "a load that finds the agent past the limits").toBe(1);
      expect(state.meta.get("pastLimits")).toEqual({ nodes: expect.any(Number), links: before });
    });

    const forget = await call(`/v1/agents/${agent}/memories/${victim.id}`, { method: "DELETE" });
    expect(forget.status, await forget.clone().text()).toBe(200);
    await drainAlarms(agent);
    expect(await linkCount(agent)).toBeLessThan(before);
    await inObject(agent, async (state) => {
      expect(state.meta.get("pastLimits"), "marker after a forget").toBeUndefined();
      state.dropGraph();
      const graph = await state.graph();
      expect(graph?.linkCount, "held again once it fits").toBe(await linkCount(agent));
    });

    // A purge of the whole agent takes the marker with the rest of its memory.
    await inObject(agent, async (state) => {
      state.network.pastLimits.limits = { nodes: 1_000_000, links: 1 };
      state.dropGraph();
      await state.graph();
      expect(state.meta.get("pastLimits")).toBeDefined();
    });
    expect([200, 202]).toContain((await call(`/v1/agents/${agent}`, { method: "DELETE" })).status);
    await drainAlarms(agent);
    await inObject(agent, (state) => expect(state.meta.get("pastLimits")).toBeUndefined());
  });
});
