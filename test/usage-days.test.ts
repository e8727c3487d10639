/**
 * The agent's usage per day is written off the answer's path (src/engine/stores/usage-days.ts):
 * counted in memory, written in the next turn of the event loop, written first by every reader of
 * the counts, and at once (inside the caller's transaction) for an accepted write. No count is lost
 * or doubled by the deferral.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { UsageDays } from "../src/engine/stores/usage-days";
import { MemoryAgent } from "../src/agent/memory-agent";
import { utcDay } from "../src/config/quotas";
import { freshAgent, recallJson, rememberAndWait, stubOf } from "./helpers";

/** What the object's table holds for a metric today (not the pending counts). */
function stored(sql: SqlStorage, metric: string): number | undefined {
  const [row] = sql
    .exec<{ value: number }>("SELECT value FROM usage_days WHERE day = ? AND metric = ?", utcDay(Date.now()), metric)
    .toArray();
  return row?.value;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function usageOf(instance: MemoryAgent): UsageDays {
  return MemoryAgent.testAccess(instance).state.terms.usage;
}

describe("usage per day", () => {
  it("writes counts in the next turn, adding up what came before it, once", async () => {
    await runInDurableObject(stubOf(freshAgent("usage-turn")), async (instance, ctx) => {
      const usage = usageOf(instance);
      usage.add({ "requests.recall": 1 });
      usage.add({ "requests.recall": 2, "model_calls.embed": 1 });
      expect(stored(ctx.storage.sql, "requests.recall"), "nothing written before the turn ends").toBeUndefined();
      await nextTurn();
      expect(stored(ctx.storage.sql, "requests.recall")).toBe(3);
      expect(stored(ctx.storage.sql, "model_calls.embed")).toBe(1);
      await nextTurn();
      expect(stored(ctx.storage.sql, "requests.recall"), "not written twice").toBe(3);
    });
  });

  it("reports pending counts: a reader writes them first, and the timer after it adds nothing", async () => {
    await runInDurableObject(stubOf(freshAgent("usage-reader")), async (instance, ctx) => {
      const usage = usageOf(instance);
      usage.add({ "requests.searchMemories": 4 });
      expect(usage.dueAt()).not.toBeNull();
      const rows = usage.unreported().filter((r) => r.metric === "requests.searchMemories");
      expect(rows.map((r) => r.value)).toEqual([4]);
      await nextTurn();
      expect(stored(ctx.storage.sql, "requests.searchMemories")).toBe(4);
      usage.markReported(rows, Date.now());
      expect(usage.unreported().filter((r) => r.metric === "requests.searchMemories")).toEqual([]);
    });
  });

  it("writes an accepted write's count with its transaction, and nothing when the transaction rolls back", async () => {
    await runInDurableObject(stubOf(freshAgent("usage-txn")), async (instance, ctx) => {
      const usage = usageOf(instance);
      expect(() =>
        ctx.storage.transactionSync(() => {
          usage.addNow({ "requests.remember": 1 });
          expect(stored(ctx.storage.sql, "requests.remember"), "written inside the transaction").toBe(1);
          throw new Error("refused after all");
        }),
      ).toThrow("refused after all");
      await nextTurn();
      expect(stored(ctx.storage.sql, "requests.remember"), "rolled back with the write").toBeUndefined();
      ctx.storage.transactionSync(() => usage.addNow({ "requests.remember": 1 }));
      expect(stored(ctx.storage.sql, "requests.remember")).toBe(1);
    });
  });

  it("counts each read once, after its answer", async () => {
    const agent = freshAgent("usage-reads");
    await rememberAndWait(agent, [{ role: "user", content: "Ines keeps the Orion budget in the green folder." }]);
    for (let i = 0; i < 3; i += 1) expect((await recallJson(agent, { keywords: ["Orion"] })).items.length).toBeGreaterThan(0);
    const counts = await runInDurableObject(stubOf(agent), (instance) =>
      usageOf(instance)
        .unreported()
        .filter((r) => r.metric === "requests.recall" || r.metric === "requests.remember"),
    );
    expect(Object.fromEntries(counts.map((r) => [r.metric, r.value]))).toEqual({ "requests.recall": 3, "requests.remember": 1 });
  });
});
